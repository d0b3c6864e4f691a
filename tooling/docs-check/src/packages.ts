import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (tooling/docs-check/src -> ../../..). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** One published package: where it lives and what its package.json says. */
export interface PublishedPackage {
  /** Folder name under packages/, e.g. `server`. */
  readonly dir: string;
  /** Absolute path of the package folder. */
  readonly path: string;
  readonly name: string;
  /** `exports` subpath (`.`, `./client`) -> the `src` file it is built from. */
  readonly entries: ReadonlyMap<string, string>;
  readonly files: readonly string[];
}

interface PackageJson {
  readonly name: string;
  readonly private?: boolean;
  readonly files?: readonly string[];
  readonly exports?: Readonly<Record<string, { readonly default?: string }>>;
}

/** `./dist/testing/index.js` -> `<package>/src/testing/index.ts`. */
function sourceOf(path: string, target: string): string {
  return join(path, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
}

/** Every non-private package under packages/, sorted by folder name. */
export function publishedPackages(): PublishedPackage[] {
  const root = join(REPO_ROOT, 'packages');
  return readdirSync(root)
    .filter((dir) => existsSync(join(root, dir, 'package.json')))
    .sort()
    .flatMap((dir) => {
      const path = join(root, dir);
      const json = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as PackageJson;
      if (json.private === true) return [];
      const entries = new Map<string, string>();
      for (const [subpath, target] of Object.entries(json.exports ?? {})) {
        if (target.default !== undefined) entries.set(subpath, sourceOf(path, target.default));
      }
      return [{ dir, path, name: json.name, entries, files: json.files ?? [] }];
    });
}

/** The import specifier of an entry: `@mcp-tasks/x` for `.`, `@mcp-tasks/x/client` for `./client`. */
export function specifierOf(pkg: PublishedPackage, subpath: string): string {
  return subpath === '.' ? pkg.name : `${pkg.name}/${subpath.replace(/^\.\//, '')}`;
}
