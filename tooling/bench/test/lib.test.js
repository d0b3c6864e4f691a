import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestTemplate } from '../src/clients/closedLoop.js';
import { httpHeaders, tasksGet } from '../src/lib/messages.js';
import { pairedRuns, warmUpUntilSteady } from '../src/lib/pairedRuns.js';
import { goalMet, markdownTable } from '../src/lib/report.js';
import { formatRate, percentile, summarize } from '../src/lib/stats.js';

describe('stats', () => {
  it('summarize gives the median with min and max', () => {
    assert.deepEqual(summarize([3, 1, 2]), { median: 2, min: 1, max: 3, values: [3, 1, 2] });
    assert.equal(summarize([4, 1, 3, 2]).median, 2.5);
  });

  it('percentile is nearest-rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    assert.equal(percentile(values, 50), 50);
    assert.equal(percentile(values, 99), 99);
    assert.equal(percentile([7], 99), 7);
    assert.ok(Number.isNaN(percentile([], 50)));
  });

  it('formatRate is compact', () => {
    assert.equal(formatRate(999), '999');
    assert.equal(formatRate(41_234), '41.2k');
    assert.equal(formatRate(2_230_000), '2.23M');
  });
});

describe('report', () => {
  const paired = {
    case: 'c',
    title: 'HTTP',
    variant: '10 conn',
    unit: 'req/s',
    ours: summarize([600, 700, 650]),
    baseline: summarize([1000, 1000, 1000]),
    ratio: summarize([0.6, 0.7, 0.65]),
    goal: { min: 0.6 },
  };

  it('judges a paired goal on the median ratio and an absolute goal on ours', () => {
    assert.equal(goalMet(paired), true);
    assert.equal(goalMet({ ...paired, goal: { min: 0.8 } }), false);
    assert.equal(goalMet({ ...paired, goal: undefined }), undefined);
    const absolute = { ours: summarize([900]), goal: { on: 'ours', max: 1024 } };
    assert.equal(goalMet(absolute), true);
    assert.equal(goalMet({ ...absolute, ours: summarize([2000]) }), false);
  });

  it('judges a goal by CPU on the CPU ratio, whatever the throughput ratio', () => {
    const byCpu = { ...paired, goal: { min: 10, by: 'cpu' }, cpuRatio: summarize([9.5, 11.25, 10.5]) };
    assert.equal(goalMet(byCpu), true);
    assert.equal(goalMet({ ...byCpu, cpuRatio: summarize([9.9]) }), false);
    assert.equal(goalMet({ ...byCpu, cpuRatio: undefined }), false);
    const line = markdownTable([byCpu]).split('\n')[2];
    assert.match(line, /\| ≥ 10× by CPU \| yes \|/);
    assert.match(line, /\| 10\.50× \(9\.50×–11\.25×\) \|/);
  });

  it('renders one markdown row per result with the spread and the verdict', () => {
    const table = markdownTable([paired, { ...paired, goal: { min: 0.8 } }]).split('\n');
    assert.equal(table.length, 4);
    assert.match(
      table[2],
      /\| HTTP \| 10 conn \| 650 \(600–700\) req\/s \| 1\.0k \(1\.0k–1\.0k\) \| 0\.65× \(0\.60×–0\.70×\) \| ≥ 0\.6× \| yes \|/,
    );
    assert.match(table[3], /\*\*no\*\*/);
  });

  it('decides no ratio goal on a baseline that fell, and says so', () => {
    const fell = { ...paired, ratio: summarize([8.5]), baselineFell: { from: 6_500, to: 466 } };
    assert.equal(goalMet(fell), undefined);
    assert.match(markdownTable([fell]).split('\n')[2], /\| \*\*void\*\*: the baseline fell from 6\.5k to 466 \|/);
    // A goal on ours alone does not depend on the baseline.
    assert.equal(goalMet({ ...fell, ours: summarize([900]), goal: { on: 'ours', max: 1024 } }), true);
  });

  it('shows the cores each side kept busy next to its CPU per operation', () => {
    const row = {
      ...paired,
      cpuPerOp: { ours: summarize([40, 42]), baseline: summarize([450, 452]) },
      cores: { ours: summarize([1, 1.01]), baseline: summarize([1.12, 1.14]) },
    };
    assert.match(markdownTable([row]).split('\n')[2], /\| 41 \/ 451 \(cores 1\.00 \/ 1\.13\) \|/);
    const withoutCores = markdownTable([{ ...row, cores: undefined }]).split('\n')[2];
    assert.match(withoutCores, /\| 41 \/ 451 \|/);
  });

  it('shows the load average around the case next to the CPU per operation', () => {
    const row = { ...paired, load: { before: [3.5, 2, 1], after: [4.25, 2, 1] } };
    const [, , line] = markdownTable([row, paired]).split('\n');
    assert.match(line, /\| 3\.50 → 4\.25 \|/);
    assert.match(markdownTable([paired]).split('\n')[2], /\| — \|/);
  });
});

describe('messages', () => {
  it('a request template differs only in the id', () => {
    const build = requestTemplate(tasksGet('abc'));
    assert.deepEqual(JSON.parse(build(42)), tasksGet('abc', 42));
  });

  it('HTTP headers mirror the method and the task id (SEP-2243)', () => {
    const headers = httpHeaders(tasksGet('abc'));
    assert.equal(headers['mcp-method'], 'tasks/get');
    assert.equal(headers['mcp-name'], 'abc');
    assert.equal(headers['mcp-protocol-version'], '2026-07-28');
  });
});

describe('warmUpUntilSteady', () => {
  const runner = (rates) => {
    const calls = [];
    const warmUp = async (side) => {
      calls.push(side);
      return rates[calls.length - 1];
    };
    return { calls, warmUp };
  };

  it('stops once two runs in a row are no more than 3 % faster than the best before them', async () => {
    // 22k, then 21k (a dip is not progress), 25k and 29k reset the count, 29.5k and 28k are flat.
    const { calls, warmUp } = runner([22_000, 21_000, 25_000, 29_000, 29_500, 28_000, 40_000]);
    assert.deepEqual(await warmUpUntilSteady(warmUp, 'ours', 10), { runs: 6, best: 29_500 });
    assert.deepEqual(new Set(calls), new Set(['ours']));
  });

  it('runs at least three times and at most maxRuns', async () => {
    assert.equal((await warmUpUntilSteady(runner([5, 5, 5, 5]).warmUp, 'ours', 10)).runs, 3);
    assert.equal((await warmUpUntilSteady(runner([1, 2, 4, 8, 16, 32]).warmUp, 'ours', 4)).runs, 4);
    assert.equal((await warmUpUntilSteady(runner([1]).warmUp, 'ours', 1)).runs, 1);
  });
});

describe('pairedRuns', () => {
  it('gives the median of the per-repetition ratios and how many cores each side kept busy', async () => {
    // Ours: 25k ops/s at 40 µs each (1.00 core); the baseline 2.5k ops/s at 450 µs each (1.125 cores).
    const sides = { ours: { rate: 25_000, cpuPerOp: 40 }, baseline: { rate: 2_500, cpuPerOp: 450 } };
    const result = await pairedRuns({ reps: 3, warmUp: async () => 1, measure: async (side) => sides[side] });
    assert.equal(result.ratio.median, 10);
    assert.equal(result.cpuPerOp.baseline.median, 450);
    assert.equal(result.cores.ours.median, 1);
    assert.equal(result.cores.baseline.median, 1.125);
    assert.equal(result.cpuRatio.median, 11.25);
  });

  it('says when the baseline fell below half its best run, warm-ups included', async () => {
    // pgbench's script as it collapsed: 6.5k tps warming up, then 500 in every repetition.
    const warmUp = async (side) => (side === 'baseline' ? 6_500 : 4_000);
    const measure = async (side) => ({ rate: side === 'baseline' ? 500 : 4_000 });
    const fell = await pairedRuns({ reps: 3, warmUp, maxWarmUps: 3, measure });
    assert.deepEqual(fell.baselineFell, { from: 6_500, to: 500 });
    assert.deepEqual(fell.warmUpRuns, { baseline: 3, ours: 3 });
    const steady = await pairedRuns({ reps: 3, warmUp, maxWarmUps: 3, measure: async () => ({ rate: 5_000 }) });
    assert.equal(steady.baselineFell, undefined);
  });

  it('has no CPU figures for a side that reports none', async () => {
    const result = await pairedRuns({ reps: 1, warmUp: async () => 1, measure: async () => ({ rate: 5 }) });
    assert.equal(result.cpuPerOp.ours, undefined);
    assert.equal(result.cores.baseline, undefined);
    assert.equal(result.cpuRatio, undefined);
  });
});
