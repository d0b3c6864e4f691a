import { startServer } from '../lib/child.js';
import { summarize } from '../lib/stats.js';

const one = (value) => summarize([value]);
/** Issue 36 item 8: the process holds at most this much heap per parked task. */
const PARKED_GOAL_BYTES = 200;

/** Runs one scenario of `servers/oursDurable.js` in a fresh process; resolves with its figures. */
async function inChild(ctx, message) {
  const server = await startServer('oursDurable', { execArgv: ['--expose-gc', ...ctx.oursExecArgv] });
  try {
    const reply = new Promise((resolve) => {
      server.child.on('message', (answer) => {
        if (answer?.type === 'durable') resolve(answer);
      });
    });
    server.child.send(message);
    const answer = await reply;
    if (answer.error !== undefined) throw new Error(answer.error);
    return answer.result;
  } finally {
    await server.stop();
  }
}

/**
 * Heap per parked task: `count` tasks of a durable tool that completes one step and asks a question, parked at
 * once (`parkAfterMs` 0), on the PostgreSQL store (the goal: nothing of a parked task stays in the process) and on
 * the in-memory store (which keeps the records by design: its row gives the runtime's own share, the heap freed by
 * closing the server while the store keeps its records).
 */
export async function parkedHeap(ctx, url) {
  const count = ctx.quick ? 500 : Number(process.env.BENCH_PARKED ?? 100_000);
  const pg = await inChild(ctx, { type: 'parked', store: url, count });
  const memory = await inChild(ctx, { type: 'parked', store: 'memory', count });
  const base = {
    case: 'durable',
    title: `${count.toLocaleString('en-US')} parked durable tasks, heap per task`,
    format: 'bytes',
    unit: 'B',
  };
  const rows = [
    {
      ...base,
      variant: 'PostgreSQL store: the whole process',
      ours: one(pg.bytesPerTask),
      goal: { on: 'ours', max: PARKED_GOAL_BYTES },
      note: `heap after full GCs with the tasks parked (once it stopped shrinking; ${pg.earlyBytesPerTask.toFixed(0)} B right after the last park), minus before; runtime's share ${pg.runtimeBytesPerTask.toFixed(0)} B, the store object's ${pg.storeBytesPerTask.toFixed(0)} B; parked in ${pg.seconds.toFixed(1)} s; baseline heap ${pg.baselineMiB.toFixed(0)} MiB`,
    },
    {
      ...base,
      variant: 'in-memory store: the runtime’s share',
      ours: one(memory.runtimeBytesPerTask),
      goal: { on: 'ours', max: PARKED_GOAL_BYTES },
      note: `the heap the server frees on close while the store keeps its records; with the records ${memory.bytesPerTask.toFixed(0)} B per task; parked in ${memory.seconds.toFixed(1)} s`,
    },
  ];
  for (const row of rows) ctx.progress(row);
  return rows;
}

/**
 * PostgreSQL round trips per completed step, counted at the `pg` client (every statement of the pool and of the
 * change feed): `tasks` tasks of `steps + 1` no-op steps against the same tasks with one step, so the difference is
 * what each further step costs. The runtime's lease renewals and claims fall in the count too.
 */
export async function stepRoundTrips(ctx, url) {
  const tasks = ctx.quick ? 5 : 20;
  const steps = 20;
  const counted = await inChild(ctx, { type: 'roundTrips', store: url, tasks, steps });
  const row = {
    case: 'durable',
    title: 'PostgreSQL round trips per completed durable step',
    variant: `${tasks} tasks of ${steps + 1} steps vs of 1 step`,
    ours: one(counted.perStep),
    format: 'ms',
    unit: 'round trips',
    // A lease renewal or a claim tick that falls in the window adds a statement to a run: 1.05 leaves room for those.
    goal: { on: 'ours', max: 1.05, text: '1 per step (≤ 1.05)' },
    note: `statements counted at the pg client; a whole task of ${steps + 1} steps: ${counted.perTask.toFixed(1)}, of 1 step: ${counted.perOneStepTask.toFixed(1)} (create, first run, step writes, completion)`,
  };
  ctx.progress(row);
  return [row];
}
