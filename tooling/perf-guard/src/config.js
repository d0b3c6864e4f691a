// What the guard measures and how. Changing any of this changes the counts: update the baseline with it.

/**
 * V8 flags that make the instruction count repeatable and proportional to the work done:
 * - `--predictable`, `--predictable-gc-schedule`, `--single-threaded`: no background threads, no GC decisions
 *   from wall-clock timings (without the GC schedule flag two identical runs differed by 1.5 %);
 * - `--random-seed`, `--hash-seed`: the same hash tables and `Math.random` in every run;
 * - `--no-opt`: no TurboFan. With `--single-threaded` its compilations run on the main thread at points that
 *   depend on invocation counts, and per-operation counts swung by 2.5× between segments; without it the
 *   interpreter and Sparkplug run the same code the same way, so cost grows linearly with the work;
 * - a fixed 1 MiB semi-space: scavenges come often and small, so none of them is a big share of a segment;
 * - `--expose-gc`: the workload collects fully before measuring, so no major GC from set-up lands in a segment.
 */
export const NODE_FLAGS = Object.freeze([
  '--predictable',
  '--predictable-gc-schedule',
  '--single-threaded',
  '--random-seed=42',
  '--hash-seed=42',
  '--no-opt',
  '--no-incremental-marking',
  '--min-semi-space-size=64',
  '--max-semi-space-size=64',
  '--expose-gc',
]);

/** Operations run, unmeasured, before the measured segments of each path. */
export const WARMUP = 200;

/**
 * Operations per measured segment (two segments per path): 12 to 67 million instructions each (the HTTP paths: about
 * 150 million). A segment can carry a one-off of 0.3 to 0.9 million instructions (V8 sweeping, lazily, what the full
 * GC before it freed; a late Sparkplug compilation), so the store and 2025-era paths are longer than the others:
 * at 300 and 250 operations that one-off alone made their segments differ by up to 3.9 % and 2.6 %.
 */
export const PLAN = Object.freeze({
  'tasks-get': 1000,
  'store-transitions': 800,
  'tools-call': 250,
  'legacy-tools-call': 600,
  // About 470,000 and 520,000 instructions each: node's HTTP parser and response, in the interpreter, are most of it.
  'http-echo': 300,
  'http-tasks-get': 300,
});

/**
 * Paths judged on what they cost beyond a reference path measured in the same run: `http-tasks-get` minus
 * `http-echo` is our HTTP binding and runtime, without node's HTTP machinery and the client that both share (about
 * 90 % of either). The reference itself is reported, never judged: node's own cost is not this project's to guard.
 */
export const REFERENCES = Object.freeze({ 'http-tasks-get': 'http-echo' });

/** Fail when a path costs more than baseline × (1 + TOLERANCE); see the README for why 10 %. */
export const TOLERANCE = 0.1;

/** Below baseline × (1 − TOLERANCE) the guard passes but asks for a baseline update. */
export const IMPROVEMENT_HINT = 0.1;

/** The two segments of one path must agree this closely, or the path is not in a steady state. */
export const SEGMENT_AGREEMENT = 0.03;
