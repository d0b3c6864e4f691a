import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (tooling/docs-code/src -> ../../..). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** This package's folder. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * Docs generated or owned by other checks, left out of the reference check: the API reference (TypeDoc output) and
 * the spec map (generated from the tests, with its own check).
 */
const OTHERS = [/^docs\/api\//, /^docs\/spec-map\.md$/];

/** Every Markdown file under docs/, as repository-relative paths with `/`, sorted. */
export function docFiles(root = REPO_ROOT): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) found.push(relative(root, path).split('\\').join('/'));
    }
  };
  walk(join(root, 'docs'));
  return found.filter((file) => !OTHERS.some((pattern) => pattern.test(file))).sort();
}
