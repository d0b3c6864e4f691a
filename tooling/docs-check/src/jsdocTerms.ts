import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Terms public JSDoc must not use: it is read by users in their editor and in the published `.d.ts`, who have
 * neither the project's internal requirement ids nor its private notes. (Tests and docs/ may use them.)
 */
export const FORBIDDEN_TERMS: readonly { readonly what: string; readonly pattern: RegExp }[] = [
  { what: 'internal requirement id', pattern: /\b(?:L-[A-Z]+\d+|[SCL]\d{1,3})\b/g },
  { what: 'decision number', pattern: /\b(?:DEC-\d+|[Dd]ecision \d+)\b/g },
  {
    what: 'private note file',
    pattern: /\b(?:SPEC-CHECKLIST|CONFORMANCE|TRANSPORTS|ARCHITECTURE|STYLE|DECISIONS)\.md\b/g,
  },
];

/** One forbidden term found in a JSDoc block. */
export interface Offence {
  /** `path:line`. */
  readonly where: string;
  readonly what: string;
  readonly term: string;
}

function* typeScriptFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* typeScriptFiles(path);
    else if (path.endsWith('.ts')) yield path;
  }
}

/** Every forbidden term inside a `/** ... *\/` block of the `.ts` files under `dir`, with its line. */
export function jsdocOffences(dir: string, relativeTo: string): Offence[] {
  const offences: Offence[] = [];
  for (const file of typeScriptFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    for (const block of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
      for (const { what, pattern } of FORBIDDEN_TERMS) {
        for (const hit of block[0].matchAll(pattern)) {
          const line = text.slice(0, (block.index ?? 0) + (hit.index ?? 0)).split('\n').length;
          offences.push({ where: `${file.slice(relativeTo.length)}:${line}`, what, term: hit[0] });
        }
      }
    }
  }
  return offences;
}
