import { startServer } from '../lib/child.js';
import { summarize } from '../lib/stats.js';

const one = (value) => summarize([value]);
const GOAL_BYTES = 2048;

/** Runs the scenario of `servers/oursMemory.js` once in a fresh server process; resolves with its figures. */
async function runOnce(ctx, count, perStream, watch) {
  const server = await startServer('oursMemory', { execArgv: ['--expose-gc', ...ctx.oursExecArgv] });
  try {
    const reply = new Promise((resolve) => {
      server.child.on('message', (message) => {
        if (message?.type === 'memory') resolve(message);
      });
    });
    server.child.send({ type: 'run', count, perStream, watch });
    const message = await reply;
    if (message.error !== undefined) throw new Error(message.error);
    return message.result;
  } finally {
    await server.stop();
  }
}

/**
 * Heap per concurrent working task, end to end: N tasks whose tool waits on an external event, created through the
 * server's MessageHandler, then listened to (one shared stream per `perStream` tasks), then all released and driven
 * to completion. Reports bytes per task after full GCs: the store records alone, everything while working, the
 * listen streams on top, and what is left once every task completed and expired. Run three times: the tool
 * stopping on cancel through `ctx.onAbort` (the goal's row), through `ctx.signal` (Node's AbortSignal is made),
 * and ignoring cancellation.
 */
export async function memoryCase(ctx) {
  const count = ctx.quick ? 10_000 : 100_000;
  const perStream = 1000;
  const r = await runOnce(ctx, count, perStream, 'onAbort');
  const signal = await runOnce(ctx, count, perStream, 'signal');
  const bare = await runOnce(ctx, count, perStream, 'none');
  const runs = [
    [r, 'the tool watches ctx.onAbort'],
    [signal, 'the tool watches ctx.signal'],
    [bare, 'the tool ignores cancellation'],
  ];
  const title = `${count.toLocaleString('en-US')} concurrent working tasks, heap per task`;
  const base = { case: 'memory', title, format: 'bytes', unit: 'B' };
  const rows = [
    {
      ...base,
      variant: 'end to end (store + runtime + tool + listen)',
      ours: one(r.workingBytes + r.listenBytes),
      goal: { on: 'ours', max: GOAL_BYTES, text: '≤ 2 KiB' },
      note: `the tool stops on cancel through ctx.onAbort; created in ${r.createSeconds.toFixed(1)} s; baseline heap ${r.baselineMiB.toFixed(0)} MiB`,
    },
    {
      ...base,
      variant: 'end to end, tool watches ctx.signal',
      ours: one(signal.workingBytes + signal.listenBytes),
      note: "reading ctx.signal makes Node's AbortSignal (~0.8 KB) and the tool's abort listener",
    },
    {
      ...base,
      variant: 'end to end, tool ignores cancellation',
      ours: one(bare.workingBytes + bare.listenBytes),
      goal: { on: 'ours', max: GOAL_BYTES, text: '≤ 2 KiB' },
      note: 'no abort listener at all',
    },
    {
      ...base,
      variant: 'store records alone',
      ours: one(r.storeBytes),
      note: 'the same working records created straight in an InMemoryTaskStore',
    },
    {
      ...base,
      variant: 'runtime, supervisor and tool frame',
      ours: one(r.workingBytes - r.storeBytes),
      note: `working tasks (${r.workingBytes.toFixed(0)} B) minus store records`,
    },
    {
      ...base,
      variant: 'listen hub',
      ours: one(r.listenBytes),
      note: `${r.streams} subscriptions/listen streams of ${perStream} tasks`,
    },
    ...runs.map(([run, how]) => ({
      ...base,
      variant: `completed (${how})`,
      format: 'count',
      unit: undefined,
      ours: one(run.completed),
      goal: { on: 'ours', min: count, text: `all ${count}` },
      note: `observed through the listen streams with their result; ${run.streamsEnded} of ${run.streams} streams ended`,
    })),
    {
      ...base,
      variant: 'left after completion and expiry',
      ours: one(Math.max(...runs.map(([run]) => run.residualBytes))),
      goal: { on: 'ours', max: 256, text: '≤ 256 B' },
      note: 'heap back near the baseline (the largest of the three runs)',
    },
  ];
  for (const row of rows) ctx.progress(row);
  return rows;
}
