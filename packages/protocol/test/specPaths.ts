import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `<repo root>/../shared/spec`: the spec copy lives next to the clone (packages/protocol/test -> ../../../../). */
export const SPEC_DIR = fileURLToPath(new URL('../../../../shared/spec/', import.meta.url));

/** The folder of core example messages; each subfolder is named for the `$defs` type its files exemplify. */
export const EXAMPLES_DIR = join(SPEC_DIR, '2026-07-28/schema/examples');

/** Reads and parses a JSON file under the spec folder. */
export function readSpecJson(relativePath: string): unknown {
  return JSON.parse(readFileSync(join(SPEC_DIR, relativePath), 'utf8'));
}

/** Reads a text file under the spec folder. */
export function readSpecText(relativePath: string): string {
  return readFileSync(join(SPEC_DIR, relativePath), 'utf8');
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
