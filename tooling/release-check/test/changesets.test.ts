// Every pending changeset must be one `changeset version` can read: front matter that names published packages of
// this repository with a bump type, then a summary. A Markdown formatter once turned the front matter's
// `'@pkg': minor` + `---` into a `## '@pkg': minor` heading (a setext heading to it), which changesets refuses.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import parse from '@changesets/parse';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const changesetDir = join(root, '.changeset');

/** Names of the packages `changeset publish` publishes (packages/* not marked private). */
function publishedPackages(): Set<string> {
  const base = join(root, 'packages');
  const names = readdirSync(base)
    .map((folder) => join(base, folder, 'package.json'))
    .filter((manifest) => existsSync(manifest))
    .map((manifest) => JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; private?: boolean })
    .filter((manifest) => manifest.private !== true)
    .map((manifest) => manifest.name);
  return new Set(names);
}

const changesets = readdirSync(changesetDir).filter((name) => name.endsWith('.md') && name !== 'README.md');

describe('pending changesets', () => {
  const published = publishedPackages();

  it.each(changesets)('%s parses, names published packages and has a summary', (name) => {
    const parsed = parse(readFileSync(join(changesetDir, name), 'utf8'));
    expect(parsed.releases.length, 'releases in the front matter').toBeGreaterThan(0);
    for (const release of parsed.releases) {
      expect(published.has(release.name), `${release.name} is a published package`).toBe(true);
      expect(['patch', 'minor', 'major']).toContain(release.type);
    }
    expect(parsed.summary.trim()).not.toBe('');
  });

  it('refuses the front matter a Markdown formatter makes of one (the check above is not vacuous)', () => {
    expect(() => parse("---\n\n## '@mcp-tasks/server': minor\n\nA summary.\n")).toThrow(/frontmatter/);
  });
});
