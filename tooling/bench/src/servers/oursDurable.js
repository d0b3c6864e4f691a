// Ours, durable execution in one process (run with --expose-gc): heap per parked task and PostgreSQL round trips
// per completed step. The harness sends { type: 'parked' | 'roundTrips', store, ... }; this process answers
// { type: 'durable', result } or { type: 'durable', error }.
import { createRequire } from 'node:module';
import { McpServer } from '@mcp-tasks/server';
import { PostgresTaskStore } from '@mcp-tasks/store-postgres';
import { InMemoryTaskStore } from '@mcp-tasks/task-store';
import { requestMeta, TASKS_CAPS, taskCall } from '../lib/messages.js';
import { ready } from './serverKit.js';

const gc = globalThis.gc;
if (typeof gc !== 'function') throw new Error('oursDurable needs --expose-gc');

// Every statement any client of the store sends, counted where `pg` sends it: `Pool.query` and the change feed's
// LISTEN connection both end in `Client.prototype.query`, so this is the store's round trips to PostgreSQL.
const pg = createRequire(createRequire(import.meta.url).resolve('@mcp-tasks/store-postgres'))('pg');
let queries = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(...args) {
  queries += 1;
  return query.apply(this, args);
};

const ASKING = requestMeta({ ...TASKS_CAPS, elicitation: {} });
const QUESTION = {
  message: 'Go on?',
  requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
};

/** heapUsed after full collections (several passes: weak callbacks and finalizers free more on later ones). */
async function settledHeap() {
  for (let pass = 0; pass < 3; pass++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

/** The settled heap once two readings 500 ms apart differ by less than 1 % (at most 30 s). */
async function stableHeap(first) {
  let last = first;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    await sleep(500);
    const next = await settledHeap();
    if (Math.abs(next - last) < last * 0.01) return next;
    last = next;
  }
  return last;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const noContext = () => ({ notify: () => undefined, signal: new AbortController().signal });

function openStore(store, table) {
  if (store === 'memory') return new InMemoryTaskStore({ maxTasksPerOwner: 1e7, maxFinishedTasksPerOwner: 1e7 });
  return new PostgresTaskStore({ connectionString: store, table, maxConnections: 8, onError: () => undefined });
}

/**
 * A server with two durable tools: `ask` (one step, then a question: with `parkAfterMs` 0 the task parks at once)
 * and `steps` (`count` steps that do nothing, so the store writes are all there is). `events` counts the
 * runtime's execution events by type; `ended` is called as a `steps` handler returns.
 */
function durableServer(store, events, ended) {
  const server = new McpServer({
    serverInfo: { name: 'mcp-tasks-bench', version: '0.0.0' },
    taskStore: store,
    closeTaskStore: false,
    tasks: { keepFinishedMs: 1 },
    execution: { parkAfterMs: 0, onEvent: (event) => events.set(event.type, (events.get(event.type) ?? 0) + 1) },
  });
  server.tool({
    name: 'ask',
    description: 'One step, then a question',
    taskSupport: 'required',
    durable: true,
    handler: async (_args, ctx) => {
      const prepared = await ctx.step('prepare', () => 1);
      const answer = await ctx.elicit(QUESTION);
      return { content: [{ type: 'text', text: `${prepared} ${answer.action}` }] };
    },
  });
  server.tool({
    name: 'steps',
    description: 'count steps that do nothing',
    taskSupport: 'required',
    durable: true,
    handler: async (args, ctx) => {
      let total = 0;
      for (let i = 0; i < args.count; i++) total += await ctx.step(`step ${i}`, () => i);
      ended();
      return { content: [{ type: 'text', text: String(total) }] };
    },
  });
  return server;
}

async function start(server, name, args, id, meta) {
  const call = taskCall(name, args, id);
  call.params._meta = meta;
  const response = await server.handle(JSON.parse(JSON.stringify(call)), noContext());
  if (typeof response?.result?.taskId !== 'string') throw new Error(`no task: ${JSON.stringify(response)}`);
}

async function until(condition, timeoutMs, what) {
  for (const deadline = Date.now() + timeoutMs; !condition(); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Heap per parked task: `count` tasks of `ask` parked, against the heap before them, both after full GCs. */
async function parked({ store: where, count }) {
  const events = new Map();
  const store = openStore(where, 'bench_parked');
  const server = durableServer(store, events, () => undefined);
  const parkedCount = () => events.get('parked') ?? 0;
  // Warm up every path (code, shapes, pools) with a few tasks parked the same way.
  for (let i = 0; i < 50; i++) await start(server, 'ask', {}, i + 1, ASKING);
  await until(() => parkedCount() >= 50, 60_000, 'the warm-up tasks to park');
  const before = await settledHeap();
  const startedAt = performance.now();
  for (let from = 0; from < count; from += 500) {
    const batch = [];
    for (let i = from; i < Math.min(count, from + 500); i++) batch.push(start(server, 'ask', {}, i + 100, ASKING));
    await Promise.all(batch);
    // Keep the tasks still in flight (created, not yet parked) bounded, as a steady arrival rate would.
    await until(() => parkedCount() + 2000 >= 50 + Math.min(count, from + 500), 600_000, 'tasks to park');
  }
  await until(() => parkedCount() >= 50 + count, 600_000, 'every task to park');
  const seconds = (performance.now() - startedAt) / 1000;
  // A parked call's objects (its RunningTool, abort controller and error) are let go as its handler unwinds, a
  // few seconds after the park itself on a loaded machine: measure once the heap stops shrinking.
  const early = await settledHeap();
  const withParked = await stableHeap(early);
  // The runtime's own share: the same heap once the server is closed and only the store (its records) is left.
  await server.close();
  const storeOnly = await settledHeap();
  await store.close();
  // What the store object itself held (its pool, caches): the heap it frees on close.
  const closed = await settledHeap();
  return {
    earlyBytesPerTask: (early - before) / count,
    bytesPerTask: (withParked - before) / count,
    storeBytesPerTask: (storeOnly - closed) / count,
    runtimeBytesPerTask: (withParked - storeOnly) / count,
    seconds,
    baselineMiB: before / 2 ** 20,
  };
}

/** Statements sent while `tasks` tasks of `steps` with `count` steps each ran to completion (settled). */
async function queriesFor(server, ended, tasks, count, firstId) {
  const from = queries;
  const done = ended.count;
  await Promise.all(Array.from({ length: tasks }, (_, i) => start(server, 'steps', { count }, firstId + i, ASKING)));
  await until(() => ended.count >= done + tasks, 120_000, 'the step tasks to end');
  // The completion writes follow the handler's return: wait until no statement was sent for 300 ms.
  for (let last = -1; last !== queries; ) {
    last = queries;
    await sleep(300);
  }
  return queries - from;
}

/** Round trips per completed step: the statements of tasks with many steps against the same tasks with one. */
async function roundTrips({ store: where, tasks, steps }) {
  const events = new Map();
  const ended = { count: 0 };
  const store = openStore(where, 'bench_steps');
  const server = durableServer(store, events, () => {
    ended.count += 1;
  });
  await queriesFor(server, ended, tasks, 2, 1); // warm-up
  const one = await queriesFor(server, ended, tasks, 1, 1000);
  const many = await queriesFor(server, ended, tasks, steps + 1, 2000);
  await server.close();
  await store.close();
  return { perStep: (many - one) / (tasks * steps), perOneStepTask: one / tasks, perTask: many / tasks };
}

process.on('message', (message) => {
  const run = { parked, roundTrips }[message?.type];
  if (run === undefined) return;
  run(message).then(
    (result) => process.send({ type: 'durable', result }),
    (error) => process.send({ type: 'durable', error: String(error?.stack ?? error) }),
  );
});
ready();
