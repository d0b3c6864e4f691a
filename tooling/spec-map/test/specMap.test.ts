import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mapProblems } from '../src/checkMap.js';
import { renderMap } from '../src/renderMap.js';
import { ruleIdsIn } from '../src/ruleIds.js';
import type { Rule } from '../src/rules.js';
import { buildSpecMap, MAP_PATH, REPO_ROOT } from '../src/specMap.js';
import { allTestTitles, testTitlesOf } from '../src/testTitles.js';

// Titles in this file must not name rule ids: they would count as tests of those rules.

/** A template placeholder as written in test source. */
const PLACEHOLDER = '$' + "{'x'}";

describe('the spec map of this repository', () => {
  const { markdown, problems } = buildSpecMap();

  it('every rule has a test or is a known gap; every named id, module and export exists', () => {
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('docs/spec-map.md is what the generator writes', () => {
    const committed = readFileSync(join(REPO_ROOT, MAP_PATH), 'utf8');
    expect(committed === markdown, `${MAP_PATH} is stale: run \`npx -y pnpm@10.34.8 spec-map\` and commit it`).toBe(
      true,
    );
  });
});

describe('ruleIdsIn', () => {
  it('reads ids with any separator, expands ranges and drops duplicates', () => {
    expect(ruleIdsIn('S4/S7, C12 and L-T3: x (S4)')).toEqual(['S4', 'S7', 'C12', 'L-T3']);
    expect(ruleIdsIn('L-S23..L-S25: x')).toEqual(['L-S23', 'L-S24', 'L-S25']);
    expect(ruleIdsIn('S3..5: x')).toEqual(['S3', 'S4', 'S5']);
  });

  it('ignores ids inside other words and plain numbers', () => {
    expect(ruleIdsIn('ES2022, RFC3986, HTTP 404, -32602, SEP-2663 and decision 11')).toEqual([]);
  });
});

describe('scanning and checking a repository', () => {
  const root = mkdtempSync(join(tmpdir(), 'spec-map-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write(
    'packages/a/test/a.test.ts',
    [
      "describe('S1: outer', () => {",
      "  it('C2: inner', () => {});",
      "  it.each([1, 2])('S3 %s', () => {});",
      `  test.skip(\`C9 ${PLACEHOLDER}\`, () => {});`,
      '});',
      "it('S4 nobody knows', () => {});",
    ].join('\n'),
  );
  write('packages/a/src/mod.ts', 'export function run() {}\nconst hidden = 1;\nexport { hidden as shown };\n');
  const rule = (id: string, extra: Partial<Rule> = {}): Rule => ({
    id,
    rule: `rule ${id}`,
    spec: 'ext:#tasks',
    impl: ['packages/a/src/mod.ts#run'],
    ...extra,
  });

  it('finds titles with their describe path, own ids and line', () => {
    expect(testTitlesOf(root, 'packages/a/test/a.test.ts')).toEqual([
      { file: 'packages/a/test/a.test.ts', line: 1, kind: 'describe', title: 'S1: outer', ids: ['S1'] },
      { file: 'packages/a/test/a.test.ts', line: 2, kind: 'test', title: 'S1: outer › C2: inner', ids: ['C2'] },
      { file: 'packages/a/test/a.test.ts', line: 3, kind: 'test', title: 'S1: outer › S3 %s', ids: ['S3'] },
      { file: 'packages/a/test/a.test.ts', line: 4, kind: 'test', title: `S1: outer › C9 ${PLACEHOLDER}`, ids: ['C9'] },
      { file: 'packages/a/test/a.test.ts', line: 6, kind: 'test', title: 'S4 nobody knows', ids: ['S4'] },
    ]);
  });

  it('reports untested rules (a describe title covers nothing), unknown ids, tested gaps, missing modules and exports, bad entries', () => {
    const rules = [
      rule('S1', { impl: ['packages/a/src/mod.ts#shown'] }),
      rule('C2', { impl: ['packages/a/src/gone.ts#run'] }),
      rule('S3', { impl: ['packages/a/src/mod.ts#hidden'] }),
      rule('C9', { gap: 'not done' }),
      rule('C10'),
      rule('C11', { gap: 'not done', impl: [] }),
      rule('C12', { spec: 'shared:tasks.md', impl: [] }),
    ];
    expect(mapProblems(root, rules, allTestTitles(root))).toEqual([
      'rule C12: spec "shared:tasks.md" does not start with a known source (ext:, sep:, core26:, core25:, extauth:)',
      'rule C12: no implementing module (or mark it as a gap with a reason)',
      'rule C2: impl module packages/a/src/gone.ts does not exist',
      'rule S3: packages/a/src/mod.ts does not export hidden',
      'packages/a/test/a.test.ts:6: "S4 nobody knows" names S4, which is no rule in rules.json',
      'rule S1 has no test: put "S1" in the title of a test that checks it',
      'rule C9 is marked as a gap but is tested (packages/a/test/a.test.ts:4): remove its "gap" from rules.json',
      'rule C10 has no test: put "C10" in the title of a test that checks it',
      'rule C12 has no test: put "C12" in the title of a test that checks it',
    ]);
  });

  it('renders a table per section with links, and the gaps apart', () => {
    const markdown = renderMap(
      [rule('S1', { note: 'half of it' }), rule('C11', { gap: 'not | done', impl: [] })],
      [{ file: 'packages/a/test/a.test.ts', line: 1, kind: 'test', title: 'S1: a | b', ids: ['S1'] }],
    );
    expect(markdown).toContain(
      '| <a id="S1"></a>S1 | rule S1 ([spec](https://github.com/modelcontextprotocol/ext-tasks/blob/main/specification/2026-07-28/tasks.md#tasks)) **Not yet:** half of it. | [`run`](../packages/a/src/mod.ts) in `packages/a/src/mod.ts` | [`packages/a/test/a.test.ts`](../packages/a/test/a.test.ts) › S1: a \\| b |',
    );
    expect(markdown).toContain('## Known gaps');
    expect(markdown).toContain('| C11 | rule C11 ([spec](');
    expect(markdown).toContain('| not \\| done | — |');
    expect(markdown).toContain('2 rules, 1 with tests, 1 partly implemented and 1 not');
    expect(markdown).toContain('- [S1](#S1): half of it.');
  });
});
