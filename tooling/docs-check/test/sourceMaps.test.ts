import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishedPackages, REPO_ROOT } from '../src/packages.js';

interface CompilerOptions {
  readonly sourceMap?: boolean;
  readonly declarationMap?: boolean;
  readonly inlineSources?: boolean;
  readonly rootDir?: string;
}

const readOptions = (path: string): CompilerOptions =>
  (JSON.parse(readFileSync(path, 'utf8')) as { compilerOptions?: CompilerOptions }).compilerOptions ?? {};

const base = readOptions(join(REPO_ROOT, 'tooling/tsconfig/base.json'));

describe('source maps ship with their sources', () => {
  it.each(publishedPackages().map((pkg) => [pkg.dir, pkg] as const))('packages/%s', (_dir, pkg) => {
    const options = { ...base, ...readOptions(join(pkg.path, 'tsconfig.build.json')) };
    const maps = options.sourceMap === true || options.declarationMap === true;
    if (!maps) return;
    // The maps name `../src/*.ts` (no inlined sources), so `src` must be published next to `dist`.
    expect(options.inlineSources ?? false).toBe(false);
    expect(options.rootDir).toBe('src');
    expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'src']));
  });

  it('the shared build settings emit both kinds of maps (the decision this test guards)', () => {
    expect(base).toMatchObject({ sourceMap: true, declarationMap: true });
  });
});
