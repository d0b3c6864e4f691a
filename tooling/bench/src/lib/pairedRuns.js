import { summarize } from './stats.js';

/**
 * Measures `ours` against `baseline` side by side: a warm-up of each, then `reps` repetitions with the order of
 * the two alternating, so drift over the run hits both equally. `measure(side)` returns `{ rate, cpuPerOp? }`
 * (rate in operations/s, higher is better). The ratio is the median of the per-repetition ratios ours/baseline.
 */
export async function pairedRuns({ reps, warmUp, measure }) {
  await warmUp('baseline');
  await warmUp('ours');
  const runs = { ours: [], baseline: [] };
  const ratios = [];
  for (let rep = 0; rep < reps; rep++) {
    const order = rep % 2 === 0 ? ['baseline', 'ours'] : ['ours', 'baseline'];
    for (const side of order) runs[side].push(await measure(side));
    ratios.push(runs.ours[rep].rate / runs.baseline[rep].rate);
  }
  const cpu = (side) => {
    const values = runs[side].map((run) => run.cpuPerOp).filter((value) => value !== undefined);
    return values.length === 0 ? undefined : summarize(values);
  };
  return {
    ours: summarize(runs.ours.map((run) => run.rate)),
    baseline: summarize(runs.baseline.map((run) => run.rate)),
    ratio: summarize(ratios),
    cpuPerOp: { ours: cpu('ours'), baseline: cpu('baseline') },
    extra: { ours: runs.ours, baseline: runs.baseline },
  };
}
