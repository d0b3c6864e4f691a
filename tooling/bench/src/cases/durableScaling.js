import { createRequire } from 'node:module';
import { createCpuQuota } from '../lib/cpuQuota.js';
import { processCpuMicros } from '../lib/processCpu.js';
import { summarize } from '../lib/stats.js';
import { startTask, startToolServer, waitUntil } from '../lib/toolServers.js';

/** Each worker's CPU cap (issue 36 item 8): two of them, the front, the database and this process fit in two cores. */
const CAPPED_CORES = 0.4;
/**
 * Two steps (one with a 300 ms pause) of `migrate_database`. The goal's tasks hash 1 MiB per step (a few ms of
 * CPU each), so a capped worker is bound by its own CPU, the condition the goal is about; the empty tasks (no data)
 * leave the runtime's and the store's work alone, which on this machine the database bounds (see the README).
 */
const WORK = { tables: 1, tableMegabytes: 1, lockBusyOnce: false };
const EMPTY = { tables: 1, tableMegabytes: 0, lockBusyOnce: false };
/**
 * A worker's `--concurrency`: several times the tasks it completes in one task's time, so runs overlap in a steady
 * pipeline (the rate is read between 10 % and 90 % done) rather than starting all at once and ending in one burst.
 */
const workerArgs = (concurrency) => ['--role', 'worker', '--concurrency', String(concurrency), '--log-level', 'error'];

// The bench reads the tasks table directly (the `pg` of the store package) to count completed tasks cheaply.
const pg = createRequire(createRequire(import.meta.url).resolve('@mcp-tasks/store-postgres'))('pg');

/** Queues `count` durable tasks through the front (`--role front`: it only stores them), 50 calls at a time. */
async function enqueue(front, count, run, args) {
  for (let from = 0; from < count; from += 50) {
    const batch = [];
    for (let i = from; i < Math.min(count, from + 50); i++) {
      batch.push(startTask(front.url, 'migrate_database', { database: `s${run}-${i}`, ...args }));
    }
    await Promise.all(batch);
  }
}

/**
 * One measurement: `count` tasks queued, then `workers` capped worker processes started on them. The rate is taken
 * between 10 % and 90 % of the tasks completed, so the workers' start and the last stragglers stay out; their CPU
 * time over the same window gives CPU per task.
 */
async function measure({ store, front, db, count, workers, run, args, concurrency }) {
  await enqueue(front, count, run, args);
  const done = async () =>
    Number((await db.query(`SELECT count(*) AS n FROM mcp_tasks WHERE status = 'completed'`)).rows[0].n);
  const already = await done();
  const quotas = [];
  const servers = [];
  try {
    for (let i = 0; i < workers; i++) {
      const quota = createCpuQuota(`durable-worker-${i}`, CAPPED_CORES);
      if (quota.unavailable !== undefined) throw new Error(quota.unavailable);
      quotas.push(quota);
      servers.push(await startToolServer(`w${run}-${i}`, store, workerArgs(concurrency), (pid) => quota.cap.add(pid)));
    }
    const seen = { completed: 0 };
    const reached = (share) => async () => {
      seen.completed = (await done()) - already;
      return seen.completed >= count * share;
    };
    await waitUntil(reached(0.1), 120_000, '10 % done');
    const from = { at: performance.now(), completed: seen.completed, cpu: cpuOf(servers) };
    await waitUntil(reached(0.9), 300_000, '90 % done');
    const seconds = (performance.now() - from.at) / 1000;
    const tasks = seen.completed - from.completed;
    const cpuMicros = cpuOf(servers) - from.cpu;
    await waitUntil(async () => (await done()) - already >= count, 120_000, 'every task done');
    return { rate: tasks / seconds, cpuPerTaskMs: cpuMicros / tasks / 1000, cores: cpuMicros / 1e6 / seconds };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    for (const quota of quotas) quota.cap.remove();
  }
}

const cpuOf = (servers) => servers.reduce((sum, server) => sum + processCpuMicros(server.pid), 0);

/** Paired runs of one worker and of two on `count` tasks of `args`; the row. */
async function scalingRow({ ctx, store, front, db }, { args, count, concurrency, what, goal, reps = 3 }) {
  const sides = { ours: [], baseline: [] };
  for (let rep = 0; rep < Math.max(1, Math.min(ctx.reps, reps)); rep++) {
    const run = `${args.tableMegabytes}-${rep}`;
    sides.baseline.push(await measure({ store, front, db, count, workers: 1, run: `${run}a`, args, concurrency }));
    sides.ours.push(await measure({ store, front, db, count, workers: 2, run: `${run}b`, args, concurrency }));
  }
  const of = (side, key) => summarize(sides[side].map((one) => one[key]));
  const micros = (side) => summarize(sides[side].map((one) => one.cpuPerTaskMs * 1000));
  const cpu = (side) =>
    `${of(side, 'cpuPerTaskMs').median.toFixed(2)} ms CPU/task, ${of(side, 'cores').median.toFixed(2)} cores`;
  const row = {
    case: 'durable',
    title: `durable tasks completed, workers capped at ${CAPPED_CORES} cores each`,
    variant: `two workers (ours) vs one (baseline), ${count} tasks of 2 steps, ${what}`,
    unit: 'tasks/s',
    ours: of('ours', 'rate'),
    baseline: of('baseline', 'rate'),
    ratio: summarize(sides.ours.map((one, i) => one.rate / sides.baseline[i].rate)),
    cpuPerOp: { ours: micros('ours'), baseline: micros('baseline') },
    // By CPU: what two caps buy against one at the CPU per task each side spent (2 × one's / two's). A loaded
    // machine may not give each worker its whole cap, which moves the throughput ratio but not this one.
    cpuRatio: summarize(sides.ours.map((one, i) => (2 * sides.baseline[i].cpuPerTaskMs) / one.cpuPerTaskMs)),
    ...(goal !== undefined && { goal }),
    note: `cgroup CPU quota per worker; workers' CPU: two ${cpu('ours')}; one ${cpu('baseline')}`,
  };
  ctx.progress(row);
  return row;
}

/**
 * Durable tasks completed per second by two worker processes against one, each capped at {@link CAPPED_CORES}
 * cores by a cgroup CPU quota (v2 or v1, whichever this machine lets us write), sharing one PostgreSQL queue
 * (`FOR UPDATE SKIP LOCKED`). A front instance queues the tasks; the workers claim and run them.
 */
export async function workerScaling(ctx, store) {
  const probe = createCpuQuota('durable-probe', CAPPED_CORES);
  if (probe.unavailable !== undefined) {
    return [
      { case: 'durable', title: 'durable workers', variant: 'skipped', ours: summarize([0]), note: probe.unavailable },
    ];
  }
  probe.cap.remove();
  const front = await startToolServer('front', store, ['--role', 'front', '--log-level', 'error']);
  const db = new pg.Client({ connectionString: store });
  await db.connect();
  try {
    const setup = { ctx, store, front, db };
    const work = { args: WORK, count: ctx.quick ? 60 : 1200, concurrency: 64, what: '1 MiB hashed per step' };
    const rows = [await scalingRow(setup, { ...work, goal: { min: 1.8, by: 'cpu' } })];
    if (!ctx.quick) {
      rows.push(await scalingRow(setup, { args: EMPTY, count: 3000, concurrency: 500, what: 'empty steps', reps: 1 }));
    }
    return rows;
  } finally {
    await db.end();
    await front.stop();
  }
}
