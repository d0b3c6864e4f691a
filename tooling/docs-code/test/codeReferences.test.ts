import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkReference, codeReferences, declarations, headingAnchors } from '../src/codeReferences.js';
import { docFiles, REPO_ROOT } from '../src/repo.js';

describe('code references in docs/ exist', () => {
  it.each(docFiles().map((doc) => [doc]))('%s', (doc) => {
    const problems = codeReferences(doc, readFileSync(join(REPO_ROOT, doc), 'utf8'))
      .map((reference) => checkReference(reference))
      .filter((problem) => problem !== undefined);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('docs/README.md links every page of docs/', () => {
    const linked = new Set(
      codeReferences('docs/README.md', readFileSync(join(REPO_ROOT, 'docs/README.md'), 'utf8')).map(
        (ref) => ref.target,
      ),
    );
    expect(docFiles().filter((doc) => doc !== 'docs/README.md' && !linked.has(doc))).toEqual([]);
  });

  it('the architecture page names modules and functions', () => {
    const refs = codeReferences('docs/architecture.md', readFileSync(join(REPO_ROOT, 'docs/architecture.md'), 'utf8'));
    expect(refs.filter((reference) => reference.symbol !== undefined).length).toBeGreaterThan(30);
  });
});

describe('codeReferences', () => {
  const markdown = [
    'See [`ToolSupervisor.start`](../packages/server/src/toolSupervisor.ts) and',
    '[`nope()`](../packages/server/src/toolSupervisor.ts), [`ToolSupervisor.fly`](../packages/server/src/toolSupervisor.ts),',
    'the [guide](guides/missing.md), `packages/server/src/gone.ts`, [spec](https://example.com) and [here](#top).',
    '```ts',
    '[`Ignored`](../nowhere.ts)',
    '```',
  ].join('\n');

  it('reads symbol links, file links and backticked paths outside code blocks', () => {
    const refs = codeReferences('docs/architecture.md', markdown);
    expect(refs).toEqual([
      {
        doc: 'docs/architecture.md',
        line: 1,
        target: 'packages/server/src/toolSupervisor.ts',
        symbol: 'ToolSupervisor.start',
      },
      { doc: 'docs/architecture.md', line: 2, target: 'packages/server/src/toolSupervisor.ts', symbol: 'nope' },
      {
        doc: 'docs/architecture.md',
        line: 2,
        target: 'packages/server/src/toolSupervisor.ts',
        symbol: 'ToolSupervisor.fly',
      },
      { doc: 'docs/architecture.md', line: 3, target: 'docs/guides/missing.md' },
      { doc: 'docs/architecture.md', line: 3, target: 'packages/server/src/gone.ts' },
    ]);
  });

  it('reports what does not exist', () => {
    const problems = codeReferences('docs/architecture.md', markdown).map((reference) => checkReference(reference));
    expect(problems).toEqual([
      undefined,
      'docs/architecture.md:2: packages/server/src/toolSupervisor.ts declares no nope',
      'docs/architecture.md:2: ToolSupervisor in packages/server/src/toolSupervisor.ts has no fly',
      'docs/architecture.md:3: docs/guides/missing.md does not exist',
      'docs/architecture.md:3: packages/server/src/gone.ts does not exist',
    ]);
  });

  it('checks the heading a link to a Markdown file points at', () => {
    const links =
      '[ok](../docs/architecture.md#journey-2-the-answer-arrives-at-another-instance-postgresql) [bad](architecture.md#nowhere)';
    const problems = codeReferences('docs/README.md', links).map((reference) => checkReference(reference));
    expect(problems).toEqual([undefined, 'docs/README.md:1: docs/architecture.md has no heading #nowhere']);
    expect([...headingAnchors('# A `code` title: (x)\n## Two\n## Two\n```\n# not a heading\n```')]).toEqual([
      'a-code-title-x',
      'two',
      'two-1',
    ]);
  });

  it('collects classes with their members, functions and constants', () => {
    const found = declarations(join(REPO_ROOT, 'packages/server/src/toolSupervisor.ts'));
    expect([...(found.get('ToolSupervisor') ?? [])]).toEqual(expect.arrayContaining(['start', '#create']));
    expect(found.has('SupervisorOptions')).toBe(false);
    expect(declarations(join(REPO_ROOT, 'packages/server/src/callAnswers.ts')).has('directAnswer')).toBe(true);
  });
});
