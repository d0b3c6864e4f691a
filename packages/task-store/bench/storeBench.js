// Benchmark of InMemoryTaskStore over the built package (run `pnpm build` first, then `pnpm bench`).
// Not a test: it reports throughput and retained memory; the numbers are recorded in the README.
import { InMemoryTaskStore, TaskOperations } from '../dist/index.js';

if (typeof globalThis.gc !== 'function') {
  console.error('Run with node --expose-gc (pnpm bench does).');
  process.exit(1);
}

const OWNER = 'bench';
/** How long each throughput figure is measured: `--quick` (the repository's `bench --quick`) only proves it runs. */
const RATE_MS = process.argv.includes('--quick') ? 500 : 3_000;

const yieldToTimers = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Runs `body` for about `ms` milliseconds after a warm-up, yielding to timers between batches (so expiry runs).
 * Returns operations per wall-clock second and per CPU second of the whole process (GC threads included); the
 * latter is the steadier figure on a shared machine.
 */
async function rate(ms, body) {
  for (let i = 0; i < 20_000; i++) await body(i);
  let ops = 0;
  const start = performance.now();
  const cpu = process.cpuUsage();
  while (performance.now() - start < ms) {
    for (let i = 0; i < 10_000; i++) await body(ops + i);
    ops += 10_000;
    await yieldToTimers();
  }
  const used = process.cpuUsage(cpu);
  return { wall: ops / ((performance.now() - start) / 1_000), cpu: ops / ((used.user + used.system) / 1e6) };
}

async function throughput() {
  const store = new InMemoryTaskStore();
  // The state machine runs in TaskOperations over the store core, as in the server.
  const ops = new TaskOperations(store);
  const ids = [];
  for (let i = 0; i < 10_000; i++) ids.push((await store.create(OWNER, { ttlMs: 3_600_000 })).taskId);
  const gets = await rate(RATE_MS, (i) => store.get(OWNER, ids[i % ids.length]));

  const versions = new Map(ids.map((id) => [id, 1]));
  const patch = { pollIntervalMs: 1_000 };
  const swaps = await rate(RATE_MS, async (i) => {
    const id = ids[i % ids.length];
    const swap = await ops.compareAndSwap(OWNER, id, versions.get(id), patch);
    if (!swap.ok) throw new Error('unexpected lost swap');
    versions.set(id, swap.record.version);
  });

  const result = { content: [{ type: 'text', text: 'ok' }] };
  // A 1 s TTL keeps the store at steady state (about one second of tasks live), expiry sweeps included.
  const lifecycles = await rate(RATE_MS, async () => {
    const task = await store.create(OWNER, { ttlMs: 1_000 });
    await ops.complete(OWNER, task.taskId, result);
  });

  const request = {
    method: 'elicitation/create',
    params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } },
  };
  const answer = { action: 'accept' };
  const inputLifecycles = await rate(RATE_MS, async () => {
    const task = await store.create(OWNER, { ttlMs: 1_000 });
    const asked = await ops.requestInput(OWNER, task.taskId, request);
    const waiting = ops.waitForInput(OWNER, task.taskId, asked.key);
    await ops.resolveInputs(OWNER, task.taskId, { [asked.key]: answer });
    await waiting;
    await ops.complete(OWNER, task.taskId, result);
  });
  await ops.close();
  await store.close();
  return { gets, swaps, lifecycles, inputLifecycles };
}

/** Retained heap per task with `count` live tasks, measured after full GCs. */
async function heapPerTask(count, complete) {
  globalThis.gc();
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  const store = new InMemoryTaskStore();
  const ops = new TaskOperations(store);
  for (let i = 0; i < count; i++) {
    const task = await store.create(`owner-${i % 100}`, { ttlMs: 3_600_000, pollIntervalMs: 1_000 });
    if (complete) await ops.complete(task.owner, task.taskId, { content: [{ type: 'text', text: `result ${i}` }] });
  }
  globalThis.gc();
  globalThis.gc();
  const bytes = (process.memoryUsage().heapUsed - before) / count;
  if (store.stats().tasks !== count) throw new Error('tasks were lost');
  await store.close();
  return bytes;
}

const started = performance.now();
const t = await throughput();
const working = await heapPerTask(100_000, false);
const completed = await heapPerTask(100_000, true);
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const both = (r) => `${fmt(r.wall).padStart(11)} /s wall ${fmt(r.cpu).padStart(11)} /s CPU`;
console.log(`node ${process.version}, ${Math.round((performance.now() - started) / 1_000)} s`);
console.log(`get                                    ${both(t.gets)}`);
console.log(`compareAndSwap                         ${both(t.swaps)}`);
console.log(`create → complete                      ${both(t.lifecycles)}`);
console.log(`create → input round → complete        ${both(t.inputLifecycles)}`);
console.log(`heap per working task (100,000 live)   ${fmt(working).padStart(11)} bytes`);
console.log(`heap per completed task (small result) ${fmt(completed).padStart(11)} bytes`);
