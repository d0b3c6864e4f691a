// The measured process, run under callgrind by the guard:
//   node [v8 flags] src/workload.js <warmup> <path>:<count>[:<extraEvery>] ...
// For each path in turn: sets it up, runs `warmup` operations, then two measured segments of `count` operations
// each, every segment ended by a marker.
// A marker is a read of `process.ppid`, the one place this process calls getppid(): callgrind runs with
// `--dump-before=getppid`, so each measured segment lands in a dump file of its own and start-up, set-up and
// warm-up never mix into it.
// `extraEvery` k > 0 repeats every k-th measured operation (a cost increase of 1/k): the test that proves the
// guard fails uses it, so the measured code itself stays untouched. A path may appear more than once; each step
// sets up its own instance.
import { PATHS } from './paths.js';

const [warmupArg, ...plan] = process.argv.slice(2);
const warmup = Number(warmupArg);

/** Ends the current callgrind segment (see above); the value is irrelevant. */
const marker = () => process.ppid;

/** A full, synchronous garbage collection (the guard runs node with --expose-gc). */
function collectGarbage() {
  if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');
  globalThis.gc();
}

for (const step of plan) {
  const [name, countArg, extraArg = '0'] = step.split(':');
  const setup = PATHS[name];
  if (setup === undefined) throw new Error(`unknown path ${name}; known: ${Object.keys(PATHS).join(', ')}`);
  const count = Number(countArg);
  const extraEvery = Number(extraArg);
  const { op, close } = await setup();
  for (let i = 0; i < warmup; i++) await op(i);
  for (let segment = 0; segment < 2; segment++) {
    // A full collection, then a segment that fits in the young generation: no GC runs inside a segment.
    collectGarbage();
    marker();
    const first = warmup + segment * count;
    for (let i = first; i < first + count; i++) {
      await op(i);
      if (extraEvery > 0 && i % extraEvery === 0) await op(i);
    }
    marker();
  }
  // Stopped before the next path is set up: its timers must not fire inside another path's segments.
  await close();
}
