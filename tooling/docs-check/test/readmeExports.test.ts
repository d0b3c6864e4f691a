import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishedPackages, specifierOf } from '../src/packages.js';
import { describeDifference, readmeExports } from '../src/readmeExports.js';
import { sourceExports } from '../src/sourceExports.js';

const packages = publishedPackages();
const exportsByFile = sourceExports(packages.flatMap((pkg) => [...pkg.entries.values()]));

describe('README export lists match src ("## Exports": bullets that start with `names`, ### per subpath)', () => {
  it('finds the published packages and their entry points', () => {
    expect(packages.map((pkg) => pkg.dir)).toContain('protocol');
    for (const pkg of packages) expect(pkg.entries.size, pkg.name).toBeGreaterThan(0);
  });

  it.each(packages.map((pkg) => [pkg.dir, pkg] as const))('packages/%s/README.md', (dir, pkg) => {
    const readme = `packages/${dir}/README.md`;
    const listed = readmeExports(readFileSync(join(pkg.path, 'README.md'), 'utf8'), pkg.name);
    const problems: string[] = [];
    for (const [subpath, file] of pkg.entries) {
      const specifier = specifierOf(pkg, subpath);
      const names = listed.get(specifier);
      if (names === undefined) {
        problems.push(`${readme}: no "### \`${specifier}\`" list under "## Exports"`);
        continue;
      }
      const difference = describeDifference(names, exportsByFile.get(file) ?? []);
      if (difference !== undefined) problems.push(`${readme}, \`${specifier}\`: ${difference}`);
    }
    const known = [...pkg.entries.keys()].map((subpath) => specifierOf(pkg, subpath));
    for (const specifier of listed.keys()) {
      if (!known.includes(specifier))
        problems.push(`${readme}: "### \`${specifier}\`" is not an export of the package`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });
});

describe('readmeExports', () => {
  it('reads root names, subpath sections, and ignores prose and other sections', () => {
    const readme = [
      '# x',
      '- `NotHere`: before the section',
      '## Exports',
      'Prose with `code`.',
      '- `A`: the first',
      '  - `nested` is a sub-bullet, not an export',
      '* `B`, `BSchema`: two names',
      '- `E` `F`: only the first counts when not comma-separated',
      '### `@s/x/sub`',
      '- `C`: in the subpath',
      '## Next',
      '- `D`',
    ].join('\n');
    expect(readmeExports(readme, '@s/x')).toEqual(
      new Map([
        ['@s/x', ['A', 'B', 'BSchema', 'E']],
        ['@s/x/sub', ['C']],
      ]),
    );
  });

  it('names what is missing, extra and repeated', () => {
    expect(describeDifference(['A', 'B', 'B'], ['A', 'C'])).toBe(
      'missing from the README: C; listed in the README but not exported: B, B; listed twice: B',
    );
    expect(describeDifference(['A'], ['A'])).toBeUndefined();
  });
});
