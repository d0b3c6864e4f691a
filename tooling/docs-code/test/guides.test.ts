import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collectPrograms, compilePrograms, PROGRAMS_DIR, writePrograms } from '../src/compilePrograms.js';
import { docFiles } from '../src/repo.js';

const programs = writePrograms(collectPrograms());

describe('the TypeScript blocks of docs/', () => {
  it('every guide has a program that runs', () => {
    const guides = docFiles().filter((doc) => doc.startsWith('docs/guides/'));
    expect(guides.length).toBeGreaterThanOrEqual(6);
    const running = new Set(programs.filter((program) => program.run).map((program) => program.doc));
    expect(guides.filter((guide) => !running.has(guide))).toEqual([]);
  });

  it('compile with the repository strict settings against the built packages', () => {
    const errors = compilePrograms(programs);
    expect(errors, errors.join('\n')).toEqual([]);
  }, 120_000);

  it('a block that does not compile is reported at its line in the guide', () => {
    const broken = writePrograms(
      [
        {
          name: 'broken',
          doc: 'docs/guides/example.md',
          run: false,
          blocks: [
            { line: 12, run: false, code: "import { McpServer } from '@mcp-tasks/server';\nnew McpServer({});" },
          ],
        },
      ],
      join(PROGRAMS_DIR, '..', 'broken-programs'),
    );
    const errors = compilePrograms(broken);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^docs\/guides\/example\.md:13 \(program broken\): TS2345 /);
  }, 120_000);
});

describe('runnable programs of docs/ run to their end', () => {
  it.each(programs.filter((program) => program.run).map((program) => [program.name, program] as const))(
    '%s',
    async (_name, program) => {
      await import(pathToFileURL(program.file).href);
    },
    60_000,
  );
});
