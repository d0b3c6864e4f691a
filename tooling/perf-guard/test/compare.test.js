import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compare, report } from '../src/compare.js';

const baseline = {
  node: 'v20.20.2',
  valgrind: 'valgrind-3.19.0',
  paths: { a: { instructionsPerOp: 1000 }, b: { instructionsPerOp: 2000 } },
};
const environment = { node: 'v20.20.2', valgrind: 'valgrind-3.19.0' };
const result = (perOp) => ({ perOp, segments: [perOp * 100, perOp * 100] });

describe('compare', () => {
  it('passes within the tolerance and fails above it', () => {
    const verdict = compare(baseline, { a: result(1099), b: result(2201) }, { tolerance: 0.1 });
    assert.deepEqual(
      verdict.rows.map((row) => row.verdict),
      ['ok', 'fail'],
    );
    assert.equal(verdict.failed, true);
    assert.equal(compare(baseline, { a: result(1100), b: result(1900) }, { tolerance: 0.1 }).failed, false);
  });

  it('passes a large decrease but marks it improved', () => {
    const verdict = compare(baseline, { a: result(800) }, { hint: 0.1 });
    assert.equal(verdict.rows[0].verdict, 'improved');
    assert.equal(verdict.failed, false);
    assert.match(report(verdict, { baseline, environment }).join('\n'), /20\.0 % cheaper.*pnpm perf-guard --update/);
  });

  it('fails a path missing from the baseline and a path whose segments disagree', () => {
    const verdict = compare(baseline, {
      c: result(10),
      a: { perOp: 1000, segments: [100_000, 110_000] },
    });
    assert.deepEqual(
      verdict.rows.map((row) => row.verdict),
      ['new', 'unsteady'],
    );
    assert.equal(verdict.failed, true);
  });

  it('judges a path with a reference on its cost beyond it, and never judges the reference', () => {
    const withRef = { ...baseline, paths: { a: { instructionsPerOp: 10_000 }, ref: { instructionsPerOp: 9000 } } };
    const references = { a: 'ref' };
    // The reference grew by a third (node's cost, not ours): a's share beyond it (1,000) is unchanged.
    const same = compare(withRef, { ref: result(12_000), a: result(13_000) }, { references });
    assert.deepEqual(
      same.rows.map((row) => [row.name, row.verdict, row.measured]),
      [
        ['ref', 'reference', 12_000],
        ['a − ref', 'ok', 1000],
      ],
    );
    // 150 instructions more are 1.5 % of a's total but 15 % of its share beyond the reference: a failure.
    const grown = compare(withRef, { ref: result(9000), a: result(10_150) }, { references, tolerance: 0.1 });
    assert.deepEqual(
      grown.rows.map((row) => row.verdict),
      ['reference', 'fail'],
    );
    // An unsteady reference makes the judged path unsteady too.
    const unsteady = compare(
      withRef,
      { ref: { perOp: 9000, segments: [900_000, 990_000] }, a: result(10_000) },
      { references },
    );
    assert.deepEqual(
      unsteady.rows.map((row) => row.verdict),
      ['unsteady', 'unsteady'],
    );
  });

  it("says which path failed, the baseline, the measured cost, the ratio, the segments' spread and how to update", () => {
    const verdict = compare(baseline, { b: result(2500) });
    const text = report(verdict, { baseline, environment }).join('\n');
    assert.match(text, /FAIL b: 2,500 instructions per operation against a baseline of 2,000 \(1\.250×/);
    assert.match(text, /pnpm perf-guard --update/);
    assert.match(text, /^b +2,000 +2,500 +1\.250× +0\.\d\d % +fail$/m);
    assert.doesNotMatch(text, /Note:/);
  });

  it('compares across Node versions but says so', () => {
    const verdict = compare(baseline, { a: result(1000) });
    const text = report(verdict, { baseline, environment: { ...environment, node: 'v22.1.0' } }).join('\n');
    assert.match(text, /recorded on Node v20\.20\.2, this is Node v22\.1\.0; compared anyway/);
    assert.equal(verdict.failed, false);
  });
});
