import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsdocOffences } from '../src/jsdocTerms.js';
import { publishedPackages, REPO_ROOT } from '../src/packages.js';

/**
 * Packages whose JSDoc still has offences, cleaned up package by package. Remove a package once it is clean (the
 * last test fails until you do, so this list only shrinks).
 */
const PENDING = new Set<string>([]);

const packages = publishedPackages();
const offencesOf = (dir: string) => jsdocOffences(join(REPO_ROOT, 'packages', dir, 'src'), REPO_ROOT);

describe('public JSDoc speaks to users (no internal requirement ids, decision numbers or private note files)', () => {
  it.each(packages.filter((pkg) => !PENDING.has(pkg.dir)).map((pkg) => [pkg.dir]))('packages/%s/src', (dir) => {
    const found = offencesOf(dir).map(({ where, what, term }) => `${where}: ${what} "${term}"`);
    expect(found, found.join('\n')).toEqual([]);
  });

  it('every package still pending cleanup has offences left (remove it from PENDING once it has none)', () => {
    const clean = [...PENDING].filter((dir) => offencesOf(dir).length === 0);
    expect(clean).toEqual([]);
  });
});

describe('jsdocOffences', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-check-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds ids, decisions and note files in JSDoc only, with their lines', () => {
    writeFileSync(
      join(dir, 'a.ts'),
      [
        '/** Answers -32602 (S12, decision 8). */',
        'export const a = 1; // C3 in a line comment is not JSDoc',
        '/**',
        ' * See CONFORMANCE.md and L-S4; SEP-2243 and ES2022 are fine.',
        ' */',
        'export const b = 2;',
      ].join('\n'),
    );
    expect(jsdocOffences(dir, dir).map(({ where, term }) => `${where} ${term}`)).toEqual([
      '/a.ts:1 S12',
      '/a.ts:1 decision 8',
      '/a.ts:4 L-S4',
      '/a.ts:4 CONFORMANCE.md',
    ]);
  });
});
