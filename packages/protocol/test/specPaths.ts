import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The in-repository copy of the specification's machine-readable material (see fixtures/spec/README.md). */
export const SPEC_DIR = fileURLToPath(new URL('./fixtures/spec/', import.meta.url));

/** The folder of core example messages; each subfolder is named for the `$defs` type its files exemplify. */
export const EXAMPLES_DIR = join(SPEC_DIR, '2026-07-28/examples');

/** Reads and parses a JSON file under the fixture folder. */
export function readSpecJson(relativePath: string): unknown {
  return JSON.parse(readFileSync(join(SPEC_DIR, relativePath), 'utf8'));
}

/** Every example as [type, file name, parsed JSON], sorted for stable test names. */
export function loadCoreExamples(): Array<[type: string, file: string, example: unknown]> {
  const out: Array<[string, string, unknown]> = [];
  for (const type of readdirSync(EXAMPLES_DIR).sort()) {
    for (const file of readdirSync(join(EXAMPLES_DIR, type)).sort()) {
      out.push([type, file, JSON.parse(readFileSync(join(EXAMPLES_DIR, type, file), 'utf8'))]);
    }
  }
  return out;
}

/** One fenced JSON example of the Tasks extension spec or SEP-2663: the `file:line` of its fence and its value. */
export interface TaskExample {
  readonly where: string;
  readonly value: Record<string, unknown>;
}

/** The Tasks extension examples, in document order. */
export function loadTaskExamples(): TaskExample[] {
  return readSpecJson('tasks-extension/examples.json') as TaskExample[];
}
