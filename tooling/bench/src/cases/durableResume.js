import { percentile, summarize } from '../lib/stats.js';
import { startTask, startToolServer, waitUntil } from '../lib/toolServers.js';

/** The lease of the instances that are killed: the kill row's goal is this + 1 s (the claim interval). */
const LEASE_MS = 2_000;
/** Long enough that no task ends before its instance goes: 20 steps of 300 ms each (`migrate_database`). */
const TASK_ARGS = { tables: 20, tableMegabytes: 0, lockBusyOnce: false };
const LOGGED = ['--log-level', 'info', '--lease-ms', String(LEASE_MS)];

/** When each of `taskIds` started its first step that ran (not replayed) on `server`, in ms since the epoch. */
function firstFreshStep(server, taskIds) {
  const wanted = new Set(taskIds);
  const starts = new Map();
  for (const event of server.events()) {
    if (event.type !== 'step' || event.replayed !== false || !wanted.has(event.taskId)) continue;
    if (!starts.has(event.taskId)) starts.set(event.taskId, event.time - event.durationMs);
  }
  return starts;
}

/** Starts `count` tasks on `doomed` and resolves with their ids once each has recorded a step there. */
async function running(doomed, count, round) {
  const taskIds = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      startTask(doomed.url, 'migrate_database', { database: `r${round}-${i}`, ...TASK_ARGS }),
    ),
  );
  await waitUntil(() => firstFreshStep(doomed, taskIds).size === count, 30_000, 'every task to record a step');
  return taskIds;
}

/**
 * One round: tasks on a fresh instance, which then goes (`end`: SIGTERM drains it, SIGKILL kills it); resolves with
 * each task's delay (ms) from `cutAt(doomed, taskId)` to the survivor's first step on it.
 */
async function round(store, survivor, count, index, end, cutAt) {
  const doomed = await startToolServer(`doomed-${index}`, store, [...LOGGED, '--drain-ms', '2000']);
  try {
    const taskIds = await running(doomed, count, index);
    const endedAt = Date.now();
    await end(doomed);
    await waitUntil(
      () => firstFreshStep(survivor, taskIds).size === count,
      LEASE_MS + 30_000,
      'the survivor to take every task over',
    );
    const starts = firstFreshStep(survivor, taskIds);
    return taskIds.map((taskId) => starts.get(taskId) - (cutAt(doomed, taskId) ?? endedAt));
  } finally {
    await doomed.kill();
  }
}

/** When `doomed` logged handing `taskId` back (its drain), if it did. */
function handedBackAt(doomed, taskId) {
  return doomed.events().find((event) => event.type === 'handed_back' && event.taskId === taskId)?.time;
}

/**
 * Resume latency, with real tool-server processes on one PostgreSQL: tasks of `migrate_database` (a step every
 * 300 ms) run on an instance that then drains (SIGTERM: `close({ graceMs })` hands each task back as its step in
 * flight ends) or is killed (SIGKILL: its leases lapse). A survivor instance (the runtime's `ClaimingWorker`,
 * claiming on the store's change notification and every second) takes them over. Measured per task, from the
 * hand-back the draining instance logs (or from the kill) to the start of the survivor's first step that runs,
 * both read from the instances' own log lines (same machine, same clock, ms).
 */
export async function resumeLatency(ctx, store) {
  const perRound = ctx.quick ? 5 : 20;
  const rounds = ctx.quick ? 1 : 3;
  const survivor = await startToolServer('survivor', store, [...LOGGED, '--concurrency', '1000']);
  try {
    const drained = [];
    const killed = [];
    for (let i = 0; i < rounds; i++) {
      drained.push(...(await round(store, survivor, perRound, `d${i}`, (s) => s.stop(), handedBackAt)));
      killed.push(
        ...(await round(
          store,
          survivor,
          perRound,
          `k${i}`,
          (s) => s.kill(),
          () => undefined,
        )),
      );
    }
    const base = { case: 'durable', title: 'durable task resumed on another instance, p99', format: 'ms', unit: 'ms' };
    const p = (values, at) => percentile(values, at).toFixed(0);
    const rows = [
      {
        ...base,
        variant: `after a drain (SIGTERM), ${drained.length} tasks`,
        ours: summarize([percentile(drained, 99)]),
        goal: { on: 'ours', max: 100 },
        note: `from the draining instance's hand-back to the survivor's first step; p50 ${p(drained, 50)} ms, max ${p(drained, 100)} ms; the survivor served no call of its own: its worker hears the hand-back on the store's change feed`,
      },
      {
        ...base,
        variant: `after kill -9, ${killed.length} tasks, leaseMs ${LEASE_MS}`,
        ours: summarize([percentile(killed, 99)]),
        goal: { on: 'ours', max: LEASE_MS + 1000, text: `≤ leaseMs + 1 s (${LEASE_MS + 1000} ms)` },
        note: `from the kill to the survivor's first step; p50 ${p(killed, 50)} ms, min ${p(killed, 0)} ms`,
      },
    ];
    for (const row of rows) ctx.progress(row);
    return rows;
  } finally {
    await survivor.kill();
  }
}
