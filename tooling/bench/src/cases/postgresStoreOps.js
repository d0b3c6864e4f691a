import { PostgresTaskStore } from '@mcp-tasks/store-postgres';
import { InMemoryTaskStore, TaskOperations } from '@mcp-tasks/task-store';
import { errorsUntilClosed } from '../lib/closingErrors.js';
import { pairedRuns } from '../lib/pairedRuns.js';
import { Pgbench } from './pgbench.js';

const OWNER = 'bench';
/** Concurrent callers: a server has many requests in flight, and a pool of connections serves them. */
const WORKERS = 32;
const IDS = 2_048;
const RESULT = { content: [{ type: 'text', text: 'ok' }] };

/**
 * Runs `WORKERS` loops of `op(worker, i)` for `seconds`; resolves with operations per second and this process's CPU
 * µs per operation (the store's client side: driver, JSON, transition functions; the database's CPU is not in it).
 */
async function closedLoop(seconds, op) {
  let ops = 0;
  const cpu = process.cpuUsage();
  const end = performance.now() + seconds * 1_000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, worker) => {
      for (let i = 0; performance.now() < end; i++) {
        await op(worker, i);
        ops++;
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { rate: ops / ((performance.now() - started) / 1_000), cpuPerOp: (used.user + used.system) / ops };
}

/**
 * The four measured operations over one store; each worker swaps only its own tasks, so no swap is lost. A 1 s TTL
 * keeps the created tasks at a steady state (expiry included), as in the in-memory store's own benchmark.
 */
async function operations(store) {
  const ops = new TaskOperations(store);
  const ids = [];
  for (let i = 0; i < IDS; i += WORKERS)
    ids.push(...(await Promise.all(Array.from({ length: WORKERS }, () => store.create(OWNER, { ttlMs: 3_600_000 })))));
  const versions = ids.map((task) => task.version);
  const mine = (worker, i) => worker + ((i * WORKERS) % IDS);
  return {
    ops,
    ...expiringOperations(store, ops),
    get: (worker, i) => store.get(OWNER, ids[(worker * 61 + i) % IDS].taskId),
    swap: async (worker, i) => {
      const at = mine(worker, i);
      const swap = await ops.compareAndSwap(OWNER, ids[at].taskId, versions[at], { pollIntervalMs: 1_000 + (i % 7) });
      if (!swap.ok) throw new Error('unexpected lost swap');
      versions[at] = swap.record.version;
    },
  };
}

/** The variants whose tasks expire a second after the run: they need no tasks created beforehand. */
function expiringOperations(store, ops) {
  return {
    create: () => store.create(OWNER, { ttlMs: 1_000 }),
    lifecycle: async () => {
      const task = await store.create(OWNER, { ttlMs: 1_000 });
      await ops.complete(OWNER, task.taskId, RESULT);
    },
  };
}

/** The variants of {@link expiringOperations} (`ttlMs: 1_000`). */
const EXPIRING = new Set(['create', 'lifecycle']);

/**
 * Runs `key` on an in-memory store of its own, closed afterwards. Why: a 2 s run creates about a million tasks that
 * expire a second later, and the store's expiry timer removed them in this process while the PostgreSQL run that
 * came next was being measured: that run fell to 21 creates/s, with 48 ms of this process's CPU per create. Closed,
 * the store's tasks are plain garbage instead of a sweep.
 */
async function inFreshMemoryStore(seconds, key) {
  const store = new InMemoryTaskStore();
  const ops = new TaskOperations(store);
  try {
    return await closedLoop(seconds, expiringOperations(store, ops)[key]);
  } finally {
    await ops.close();
    await store.close();
  }
}

/** The rows against PostgreSQL's own limit: the store's operation, pgbench's, and the goal on their ratio. */
const AGAINST_PGBENCH = {
  get: { variant: 'get vs `pgbench -S -M prepared`', pgbench: 'selectOnly', goal: { min: 0.8 } },
  lifecycle: {
    variant: 'create → complete vs a prepared pgbench script of its statements (insert, then update + notify)',
    pgbench: 'createComplete',
    goal: { min: 0.5 },
  },
};

const GOALS = {
  get: { on: 'ours', min: 10_000, text: '≥ 10k/s' },
  lifecycle: { on: 'ours', min: 1_000, text: '≥ 1k/s' },
};
const VARIANTS = { create: 'create', get: 'get', swap: 'CAS update', lifecycle: 'create → complete' };

/**
 * Store operations per second, PostgreSQL (ours) next to the in-memory store (baseline), from `WORKERS` concurrent
 * callers in this process, as a server's requests would call them.
 */
export async function postgresStoreOps(ctx, url) {
  const errors = errorsUntilClosed('PostgresTaskStore (store ops)');
  const postgres = new PostgresTaskStore({ connectionString: url, table: 'bench_store', onError: errors.onError });
  const memory = new InMemoryTaskStore();
  const sides = { ours: await operations(postgres), baseline: await operations(memory) };
  const rows = [];
  try {
    for (const [key, variant] of Object.entries(VARIANTS)) {
      const run = (side, seconds) =>
        side === 'baseline' && EXPIRING.has(key)
          ? inFreshMemoryStore(seconds, key)
          : closedLoop(seconds, sides[side][key]);
      const result = await pairedRuns({
        reps: ctx.reps,
        warmUp: async (side) => (await run(side, ctx.warmSeconds)).rate,
        maxWarmUps: ctx.maxWarmUps,
        measure: (side) => run(side, ctx.seconds),
      });
      rows.push({
        case: 'postgres',
        title: `task store: PostgreSQL vs in-memory (${WORKERS} callers)`,
        variant,
        unit: '/s',
        ...result,
        goal: GOALS[key],
        // The table's CPU column is "server CPU"; here both stores run in the harness process, so it is the harness's.
        note: "CPU: the harness's, where both stores run (the driver's side; the database's own CPU is not in it)",
      });
      ctx.progress(rows.at(-1));
    }
    rows.push(...(await againstPgbench(ctx, url)));
  } finally {
    await Promise.all([sides.ours.ops.close(), sides.baseline.ops.close()]);
    await Promise.all([postgres.close(), memory.close()]);
    errors.closed();
  }
  return rows;
}

/**
 * The store's `get` and create → complete against `pgbench` on the same database with as many clients as the store
 * has callers (`WORKERS`), paired and alternating like every other row: PostgreSQL's own limit on this machine.
 * The store gets a pool of `WORKERS` connections, as pgbench has (the default pool, 10, makes 32 callers queue for
 * a connection while pgbench's 32 clients each have one). Not in `--quick`.
 */
async function againstPgbench(ctx, url) {
  // pgbench runs whole seconds (at least 2): four runs per row would add a quarter to `--quick`, which runs in check.
  if (ctx.quick) return [];
  const found = await Pgbench.find(url);
  if (found.pgbench === undefined) {
    process.stderr.write(`  postgres: no pgbench rows (${found.missing})\n`);
    return [];
  }
  const errors = errorsUntilClosed('PostgresTaskStore (against pgbench)');
  const store = new PostgresTaskStore({
    connectionString: url,
    table: 'bench_store',
    maxConnections: WORKERS,
    onError: errors.onError,
  });
  const ours = await operations(store);
  const rows = [];
  try {
    for (const [key, { variant, pgbench, goal }] of Object.entries(AGAINST_PGBENCH)) {
      const run = async (side, seconds) =>
        side === 'ours'
          ? closedLoop(seconds, ours[key])
          : { rate: await found.pgbench[pgbench](...(key === 'get' ? [] : ['bench_store']), WORKERS, seconds) };
      const result = await pairedRuns({
        reps: ctx.reps,
        warmUp: async (side) => (await run(side, ctx.warmSeconds)).rate,
        maxWarmUps: ctx.maxWarmUps,
        measure: (side) => run(side, ctx.seconds),
      });
      rows.push({
        case: 'postgres',
        title: `task store on PostgreSQL vs pgbench (${WORKERS} clients and connections each)`,
        variant,
        unit: '/s',
        ...result,
        goal,
        note: "CPU: the harness's (the store's client side); pgbench's own CPU is not measured",
      });
      ctx.progress(rows.at(-1));
    }
  } finally {
    found.pgbench.close();
    await ours.ops.close();
    await store.close();
    errors.closed();
  }
  return rows;
}
