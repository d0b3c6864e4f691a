// Known divergences (tooling/interop-peers/expected.json): a failing cell listed there is expected, any other fails.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const expectedFile = join(import.meta.dirname, '../expected.json');

/**
 * The divergences, each once with the cells it makes fail: { ref, class: 'theirs' | 'ambiguous' | 'fixture' | 'ours'
 * | 'blocked', title, note, cells }. A divergence without cells (ours fixed, or a peer that could not run) is documented only.
 */
export function loadDivergences(file = expectedFile) {
  return JSON.parse(readFileSync(file, 'utf8')).divergences;
}

/** The known divergences by cell key (see {@link loadDivergences}). */
export function loadExpected(file = expectedFile) {
  const byCell = {};
  for (const { cells, ...entry } of loadDivergences(file)) {
    for (const cell of cells) byCell[cell] = entry;
  }
  return byCell;
}

/**
 * Sorts the cells: `unexpected` (failing and not known: a regression of ours, or a new one of theirs to classify),
 * `known` (failing as recorded), `fixed` (recorded but now passing: take it out of expected.json).
 */
export function judge(cells, expected, cellKey) {
  const unexpected = [];
  const known = [];
  const fixed = [];
  for (const cell of cells) {
    const entry = expected[cellKey(cell)];
    if (!cell.ok && entry) known.push({ cell, entry });
    else if (!cell.ok) unexpected.push(cell);
    else if (entry) fixed.push({ cell, entry });
  }
  return { unexpected, known, fixed };
}
