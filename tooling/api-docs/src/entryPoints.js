// Finds the public surface to document: every published (non-private) package under packages/ and every entry point
// of its `exports` map, mapped from the declaration file it ships back to the TypeScript source it is built from.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @typedef {{ packageName: string, specifier: string, source: string }} EntryPoint
 *   `specifier` is what users import (`@mcp-tasks/task-store/testing`); `source` the absolute path of its source file.
 */

/**
 * Lists the entry points of the published packages under `packagesDir`, in directory then `exports` order.
 * A package with `"private": true` is skipped; an export whose `types` is not `./dist/<path>.d.ts` is an error
 * (the build layout every package follows: `src/<path>.ts` compiles to `dist/<path>.d.ts`).
 * @param {string} packagesDir
 * @returns {EntryPoint[]}
 */
export function publishedEntryPoints(packagesDir) {
  const entries = [];
  for (const dir of readdirSync(packagesDir, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    const root = join(packagesDir, dir.name);
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    if (manifest.private === true) continue;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const types = typeof target === 'string' ? target : target.types;
      const match = /^\.\/dist\/(.+)\.d\.ts$/.exec(types ?? '');
      if (!match) throw new Error(`${manifest.name}: export ${subpath} has no ./dist/*.d.ts types (${types})`);
      entries.push({
        packageName: manifest.name,
        specifier: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
        source: join(root, 'src', `${match[1]}.ts`),
      });
    }
  }
  return entries;
}

/**
 * Maps each import specifier to its source file, for the compiler's `paths`: one program over the sources of every
 * package, so a type one package takes from another links to its page instead of to a copy in `dist`.
 * @param {EntryPoint[]} entries
 * @returns {Record<string, string[]>}
 */
export function sourcePaths(entries) {
  return Object.fromEntries(entries.map((entry) => [entry.specifier, [entry.source]]));
}
