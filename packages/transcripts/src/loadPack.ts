import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Transcript, TranscriptSchema } from './transcriptSchema.js';

/** The folder of the pack shipped with this package (`transcripts/`, one JSON file per scenario). */
export const PACK_DIR = fileURLToPath(new URL('../transcripts/', import.meta.url));

/** The order scenarios replay in: the pack's `index.json` names them. */
const INDEX = 'index.json';

/**
 * Reads and validates a pack: `index.json` lists the scenario names in order, each in `<scenario>.json`. Throws
 * naming the file and the first problem when one does not match the transcript format.
 */
export function loadPack(dir: string = PACK_DIR): Transcript[] {
  const names = JSON.parse(readFileSync(join(dir, INDEX), 'utf8')) as unknown;
  if (!Array.isArray(names)) throw new Error(`${join(dir, INDEX)}: expected an array of scenario names`);
  return names.map((name) => {
    const file = join(dir, `${String(name)}.json`);
    const parsed = TranscriptSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success)
      throw new Error(`${file}: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
    return parsed.data;
  });
}

/** The files of a pack as text, keyed by file name: what {@link loadPack} reads and a recording writes. */
export function packFiles(transcripts: readonly Transcript[]): Map<string, string> {
  const files = new Map<string, string>();
  files.set(
    INDEX,
    `${JSON.stringify(
      transcripts.map((t) => t.scenario),
      null,
      2,
    )}\n`,
  );
  for (const transcript of transcripts)
    files.set(`${transcript.scenario}.json`, `${JSON.stringify(transcript, null, 2)}\n`);
  return files;
}

/** The file names in a pack folder (for comparing a fresh recording with it). */
export function listPackFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort();
}
