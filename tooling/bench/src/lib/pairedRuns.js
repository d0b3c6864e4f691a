import { summarize } from './stats.js';

/** A warm-up run this much faster than every run before it means the side is still warming up. */
const STILL_WARMING = 1.03;
/** How many warm-up runs in a row must be no faster than the best before them. */
const FLAT_RUNS = 2;
/** A baseline whose measured median is below this share of its best run fell during the row (see `baselineFell`). */
const FELL = 0.5;

/**
 * Runs `warmUp(side)` (one short load, resolving with its rate) until the side stops getting faster: until
 * {@link FLAT_RUNS} runs in a row are no more than 3 % faster than the best run before them, and at most `maxRuns`
 * runs. Resolves with how many ran and the best rate. Why not a fixed time: a Node server's JIT and heap take
 * seconds to settle (ours went from 22k to 31k `tasks/get`/s over its first 10 s, the raw echo from 31k to 40k), and
 * a fixed one-second warm-up left the first repetitions measuring the compiler rather than the server.
 */
export async function warmUpUntilSteady(warmUp, side, maxRuns) {
  let best = 0;
  let flat = 0;
  let runs = 0;
  while (runs < maxRuns) {
    const rate = await warmUp(side);
    runs++;
    flat = rate > best * STILL_WARMING ? 0 : flat + 1;
    best = Math.max(best, rate);
    if (flat >= FLAT_RUNS) break;
  }
  return { runs, best };
}

/**
 * Measures `ours` against `baseline` side by side: each warmed up until it stops getting faster (at most
 * `maxWarmUps` runs of `warmUp(side)`, which resolves with its rate; see {@link warmUpUntilSteady}), then `reps`
 * repetitions with the order of the two alternating, so drift over the run hits both equally. `measure(side)`
 * returns `{ rate, cpuPerOp? }` (rate in operations/s, higher is better; CPU in µs per operation). The ratio is
 * the median of the per-repetition ratios ours/baseline; `cpuPerOp` and `cores` (the CPU per operation times the
 * rate: how many cores the side kept busy) summarize each side's runs that reported CPU; `cpuRatio` is the median
 * of the per-repetition ratios baseline CPU / ours CPU per operation (how many times less work ours did per
 * operation: the figure goals are decided on, since unlike throughput it hardly moves with the machine's load);
 * `warmUpRuns` says how many warm-up runs each side took. `baselineFell` (`{ from, to }`, else absent) says the
 * baseline's median fell below half its best run, warm-ups included: the baseline did not measure what it measured
 * at first (a pgbench script collapsed this way, from 6–7k to 400–500 tps, when the planner began reading its rows
 * through the wrong index), so the row decides no goal.
 */
export async function pairedRuns({ reps, warmUp, maxWarmUps = 1, measure }) {
  const warmedUp = {
    baseline: await warmUpUntilSteady(warmUp, 'baseline', maxWarmUps),
    ours: await warmUpUntilSteady(warmUp, 'ours', maxWarmUps),
  };
  const runs = { ours: [], baseline: [] };
  const ratios = [];
  for (let rep = 0; rep < reps; rep++) {
    const order = rep % 2 === 0 ? ['baseline', 'ours'] : ['ours', 'baseline'];
    for (const side of order) runs[side].push(await measure(side));
    ratios.push(runs.ours[rep].rate / runs.baseline[rep].rate);
  }
  const summaryOf = (side, figure) => {
    const values = runs[side].map(figure).filter((value) => value !== undefined);
    return values.length === 0 ? undefined : summarize(values);
  };
  const cpu = (run) => run.cpuPerOp;
  const cpuRatios = runs.ours
    .map((run, rep) => runs.baseline[rep].cpuPerOp / run.cpuPerOp)
    .filter((value) => Number.isFinite(value));
  // CPU time over wall time. Above 1 the side ran on more than one core (V8's helper threads), which throughput
  // rewards and CPU per operation does not show.
  const cores = (run) => (run.cpuPerOp === undefined ? undefined : (run.cpuPerOp * run.rate) / 1e6);
  const baseline = summarize(runs.baseline.map((run) => run.rate));
  const baselineBest = Math.max(warmedUp.baseline.best, baseline.max);
  return {
    ours: summarize(runs.ours.map((run) => run.rate)),
    baseline,
    ...(baseline.median < FELL * baselineBest ? { baselineFell: { from: baselineBest, to: baseline.median } } : {}),
    ratio: summarize(ratios),
    cpuPerOp: { ours: summaryOf('ours', cpu), baseline: summaryOf('baseline', cpu) },
    cpuRatio: cpuRatios.length === 0 ? undefined : summarize(cpuRatios),
    cores: { ours: summaryOf('ours', cores), baseline: summaryOf('baseline', cores) },
    extra: { ours: runs.ours, baseline: runs.baseline },
    warmUpRuns: { baseline: warmedUp.baseline.runs, ours: warmedUp.ours.runs },
  };
}
