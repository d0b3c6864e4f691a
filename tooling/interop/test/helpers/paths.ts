import { fileURLToPath } from 'node:url';

/** Absolute path of a fixture script under test/fixtures. */
export function fixturePath(name: string): string {
  return fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
}
