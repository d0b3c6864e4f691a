import { describe, expect, it } from 'vitest';
import { judge, loadDivergences, loadExpected } from '../src/expected.js';
import { cellKey, parseCaseLines, replayCells } from '../src/runCells.js';
import { renderDoc } from '../src/writeDoc.js';

const cell = (overrides) => ({
  peer: 'p',
  direction: 'ours → theirs',
  transport: 'stdio',
  era: '2026',
  case: 'c',
  ok: true,
  detail: '',
  ...overrides,
});

describe('judging a run', () => {
  const expected = { [cellKey(cell({ case: 'known' }))]: { ref: 'D1', class: 'theirs', title: 't', note: 'n' } };

  it('fails only on a failing cell nobody recorded, and reports recorded cells that now pass', () => {
    const verdict = judge(
      [cell({ case: 'known', ok: false }), cell({ case: 'new', ok: false }), cell({ case: 'fine' })],
      expected,
      cellKey,
    );
    expect(verdict.unexpected.map((c) => c.case)).toEqual(['new']);
    expect(verdict.known.map((k) => k.cell.case)).toEqual(['known']);
    expect(judge([cell({ case: 'known' })], expected, cellKey).fixed).toHaveLength(1);
  });

  it('keys a cell by peer, direction, transport with its backend, era and case', () => {
    expect(cellKey(cell({ transport: 'http-stateless', backend: 'memory://' }))).toBe(
      'p | ours → theirs | http-stateless (memory://) | 2026 | c',
    );
  });
});

describe('reading what the peers report', () => {
  it('takes the JSON case lines of a peer client and ignores the rest', () => {
    const out =
      'warning: deprecated\n{"case":"a","ok":true,"detail":"x"}\n{not json\n{"case":"b","ok":false,"detail":"y"}\n';
    expect(parseCaseLines(out)).toEqual([
      { case: 'a', ok: true, detail: 'x' },
      { case: 'b', ok: false, detail: 'y' },
    ]);
  });

  it('makes one cell per replayed scenario, failing when any expectation failed (a skip is not a failure)', () => {
    const report = {
      results: [
        { scenario: 's1', expectation: 'e1', outcome: 'pass' },
        { scenario: 's1', expectation: 'e2', outcome: 'skip', reason: 'no token' },
        { scenario: 's2', expectation: 'e3', outcome: 'fail', reason: 'boom' },
      ],
    };
    expect(replayCells(report)).toEqual([
      { case: 's1', ok: true, detail: '1 passed, 1 skipped' },
      { case: 's2', ok: false, detail: 'e3: boom' },
    ]);
  });
});

describe('the committed expected.json', () => {
  const divergences = loadDivergences();

  it('gives every divergence a unique ref, a known class, a title and a note', () => {
    expect(new Set(divergences.map((d) => d.ref)).size).toBe(divergences.length);
    for (const d of divergences) {
      expect(['theirs', 'ours', 'ambiguous', 'fixture', 'blocked']).toContain(d.class);
      expect(d.title.length).toBeGreaterThan(10);
      expect(d.note.length).toBeGreaterThan(80);
    }
  });

  it('lists each cell under one divergence only', () => {
    const cells = divergences.flatMap((d) => d.cells);
    expect(new Set(cells).size).toBe(cells.length);
    expect(Object.keys(loadExpected())).toHaveLength(cells.length);
  });
});

describe('docs/interop.md', () => {
  it('renders the summary, a table per peer with each failing cell named by its divergence, and the divergences', () => {
    const cells = [cell({ case: 'known', ok: false }), cell({ case: 'fine' }), cell({ case: 'new', ok: false })];
    const expected = { [cellKey(cells[0])]: { ref: 'D1', class: 'theirs' } };
    const doc = renderDoc(
      {
        generatedAt: 'T',
        node: 'v20',
        durationMs: 1000,
        versions: { p: 'p 1.0' },
        skipped: [{ peer: 'q', reason: 'no go' }],
        cells,
      },
      expected,
      cellKey,
      [{ ref: 'D1', class: 'theirs', title: 'a title', note: 'a note', cells: [cellKey(cells[0])] }],
    );
    expect(doc).toContain('## Summary: 1 of 3 cells pass');
    expect(doc).toContain('| p | ours → theirs | 1 | 2 |');
    expect(doc).toContain('| `known` | ❌ theirs D1 |');
    expect(doc).toContain('| `new` | ❌ **unexpected** |');
    expect(doc).toContain('**q skipped**: no go');
    expect(doc).toContain('### D1 (theirs): a title');
  });
});
