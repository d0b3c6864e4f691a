// The guard itself (CI runs it after `pnpm check`, through the root `check:more` script) and the proof that it bites:
// the same harness measures a variant that repeats every fifth measured operation (+20 % work, the paths
// themselves untouched), and the guard must fail it on every path.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { baselineOf, readBaseline } from '../src/baseline.js';
import { compare, report } from '../src/compare.js';
import { PLAN, REFERENCES } from '../src/config.js';
import { measureSteps, valgrindVersion } from '../src/measure.js';

describe('perf-guard', () => {
  let environment;
  let baseline;
  let normal;
  let slowed;

  before(async () => {
    environment = { node: process.version, valgrind: await valgrindVersion() };
    assert.ok(environment.valgrind, 'valgrind is not installed (apt-get install valgrind)');
    baseline = await readBaseline();
    assert.ok(baseline, 'no baseline.json: run `pnpm perf-guard --update` and commit it');
    // One process: every path as the guard measures it, then each again with every fifth operation repeated
    // (after the normal steps, so those count exactly as in the guard's own run).
    const names = Object.keys(PLAN);
    const steps = names.map((name) => ({ name, count: PLAN[name] }));
    const results = await measureSteps([...steps, ...steps.map((step) => ({ ...step, extraEvery: 5 }))]);
    normal = Object.fromEntries(names.map((name, index) => [name, results[index]]));
    slowed = Object.fromEntries(names.map((name, index) => [name, results[names.length + index]]));
  });

  it('every hot path costs what the committed baseline says, within the tolerance', () => {
    const verdict = compare(baseline, normal);
    const text = report(verdict, { baseline, environment }).join('\n');
    console.log(text);
    assert.equal(verdict.failed, false, text);
  });

  it('20 % more work on a path shows as 15 % to 25 % more instructions per operation', () => {
    for (const name of Object.keys(normal)) {
      const ratio = slowed[name].perOp / normal[name].perOp;
      console.log(`${name}: ${normal[name].perOp} → ${slowed[name].perOp} instructions/op (${ratio.toFixed(3)}×)`);
      assert.ok(ratio > 1.15 && ratio < 1.25, `${name}: ${ratio.toFixed(3)}×`);
    }
  });

  it('fails every path made 20 % costlier, against this run and against the committed baseline', () => {
    // A reference path (the raw HTTP echo) is shown, never judged; every other path must fail.
    const judged = (rows) => rows.filter((row) => row.verdict !== 'reference').map((row) => row.verdict);
    const fresh = compare(baselineOf(normal, environment), slowed);
    assert.deepEqual(
      judged(fresh.rows),
      Object.keys(normal)
        .filter((name) => !Object.values(REFERENCES).includes(name))
        .map(() => 'fail'),
      report(fresh, { baseline: baselineOf(normal, environment), environment }).join('\n'),
    );
    const committed = compare(baseline, slowed);
    assert.equal(committed.failed, true);
    assert.ok(judged(committed.rows).every((verdict) => verdict === 'fail'));
  });
});
