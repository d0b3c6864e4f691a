// Ours: heap per concurrent working task, end to end, in one server process (run with --expose-gc).
// The harness sends { type: 'run', count, perStream }; this process answers { type: 'memory', ... }.
import { setMaxListeners } from 'node:events';
import { writeHeapSnapshot } from 'node:v8';
import { LATEST_PROTOCOL_VERSION } from '@mcp-tasks/protocol';
import { McpServer } from '@mcp-tasks/server';
import { InMemoryTaskStore } from '@mcp-tasks/task-store';
import { requestMeta, taskCall } from '../lib/messages.js';
import { ready } from './serverKit.js';

/**
 * Stands for what a real tool waits on (a webhook, a queue message, a job finishing elsewhere): one pending promise
 * per task, settled from outside the server by `release`. The registry entry and the promise are the tool's own
 * frame; unless `watch` is 'none' it also stops waiting on cancel (through `ctx.onAbort` or `ctx.signal`), as a
 * tool that honours cancellation does.
 */
class ExternalEvents {
  #waiting = new Map();

  wait(key, ctx, watch) {
    if (watch === 'none') return new Promise((resolve) => this.#waiting.set(key, resolve));
    if (watch === 'onAbort') {
      // The listener is not removed once the event came: the runtime lets it go when the call ends.
      return new Promise((resolve, reject) => {
        this.#waiting.set(key, resolve);
        ctx.onAbort((reason) => {
          this.#waiting.delete(key);
          reject(reason);
        });
      });
    }
    const { signal } = ctx;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.#waiting.delete(key);
        reject(signal.reason);
      };
      this.#waiting.set(key, (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      });
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  get size() {
    return this.#waiting.size;
  }

  /** Settles every waiting task with its event; resolves with how many were settled. */
  release() {
    const settled = this.#waiting.size;
    for (const [key, settle] of this.#waiting) settle(`event for ${key}`);
    this.#waiting.clear();
    return settled;
  }
}

const gc = globalThis.gc;
if (typeof gc !== 'function') throw new Error('oursMemory needs --expose-gc');

/** heapUsed after full collections (two passes: weak callbacks and finalizers free more on the second). */
async function settledHeap() {
  for (let pass = 0; pass < 3; pass++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

/** Runs `count` calls of `start(i)` with at most `width` in flight. */
async function inBatches(count, width, start) {
  for (let from = 0; from < count; from += width) {
    const batch = [];
    for (let i = from; i < Math.min(count, from + width); i++) batch.push(start(i));
    await Promise.all(batch);
  }
}

/** Store records alone: `count` working tasks created straight in a store, as the server creates them. */
async function storeOnly(count) {
  const store = new InMemoryTaskStore({ maxTasksPerOwner: count + 1 });
  const before = await settledHeap();
  await inBatches(count, 1000, (i) =>
    store.create('anonymous', {
      taskId: `task-${i.toString().padStart(20, '0')}`,
      ttlMs: 3_600_000,
      pollIntervalMs: 1000,
      requestMeta: { method: 'tools/call', name: 'await-event' },
      lease: { worker: 'worker-000000000000', until: Date.now() + 30_000 },
    }),
  );
  const after = await settledHeap();
  await store.close();
  return (after - before) / count;
}

function noContext(notify = () => undefined) {
  return { notify, signal: new AbortController().signal };
}

/** The whole scenario; every call goes through `server.handle`, the MessageHandler stdio and WebSocket call. */
/** A request as a transport hands it over: parsed from JSON, not built by object literals. */
function wire(message) {
  return JSON.parse(JSON.stringify(message));
}

async function run({ count, perStream, watch, snapshot, listeningSnapshot }) {
  const events = new ExternalEvents();
  const store = new InMemoryTaskStore({ maxTasksPerOwner: count + 1, maxFinishedTasksPerOwner: count + 1 });
  const server = new McpServer({
    serverInfo: { name: 'mcp-tasks-bench', version: '0.0.0' },
    taskStore: store,
    closeTaskStore: true,
    // A finished task leaves soon, so the heap must come back to the baseline once every task completed.
    tasks: { keepFinishedMs: 1 },
  });
  server.tool({
    name: 'await-event',
    description: 'A task that completes when its external event arrives',
    taskSupport: 'required',
    handler: async (_args, ctx) => {
      const text = await events.wait(ctx.taskId, ctx, watch);
      return { content: [{ type: 'text', text }] };
    },
  });
  // Warm up every path once (code, shapes, the lazily built parts of the runtime), then measure.
  await warmUp(server, events);

  const storeBytes = await storeOnly(count);
  const baseline = await settledHeap();
  const startedAt = performance.now();
  const taskIds = new Array(count);
  await inBatches(count, 1000, async (i) => {
    const response = await server.handle(wire(taskCall('await-event', {}, i + 1)), noContext());
    const taskId = response?.result?.taskId;
    if (typeof taskId !== 'string') throw new Error(`no task: ${JSON.stringify(response)}`);
    taskIds[i] = taskId;
  });
  const createSeconds = (performance.now() - startedAt) / 1000;
  const working = await settledHeap();
  if (events.size !== count) throw new Error(`${events.size} of ${count} tools are waiting`);
  if (snapshot) writeHeapSnapshot(snapshot);

  // Listen streams, `perStream` tasks each (a client's shared stream over its tasks); they observe every completion.
  const completed = new Set();
  const streams = [];
  const stop = new AbortController();
  // Every stream listens to this one signal: no leak, so no warning.
  setMaxListeners(0, stop.signal);
  for (let from = 0; from < count; from += perStream) {
    const ids = taskIds.slice(from, from + perStream);
    const acked = new Promise((resolve) => {
      const context = {
        signal: stop.signal,
        notify: (message) => {
          if (message.method === 'notifications/subscriptions/acknowledged') resolve();
          const p = message.params;
          if (message.method === 'notifications/tasks' && p.status === 'completed' && p.result?.content?.[0]?.text) {
            if (p.result.content[0].text === `event for ${p.taskId}`) completed.add(p.taskId);
          }
        },
      };
      const listen = {
        jsonrpc: '2.0',
        id: `listen-${from}`,
        method: 'subscriptions/listen',
        params: { notifications: { taskIds: ids }, _meta: requestMeta() },
      };
      streams.push(server.handle(wire(listen), context));
    });
    await acked;
  }
  const listening = await settledHeap();
  if (listeningSnapshot) writeHeapSnapshot(listeningSnapshot);

  const released = events.release();
  await until(
    () => completed.size === count,
    120_000,
    () => `${completed.size} of ${count} completions observed`,
  );
  // Every acknowledged task expires (keepFinishedMs 1), so every stream ends by itself.
  await until(
    () => store.stats().tasks === 0,
    60_000,
    () => `${store.stats().tasks} tasks still stored`,
  );
  const streamResults = await Promise.all(streams);
  stop.abort();
  const observed = completed.size;
  // The driver's own bookkeeping (ids, observations) must not count as what the server kept.
  taskIds.length = 0;
  completed.clear();
  streams.length = 0;
  const drained = await settledHeap();
  await server.close();
  return {
    count,
    perStream,
    streams: streamResults.length,
    released,
    completed: observed,
    streamsEnded: streamResults.filter((result) => result?.result?.resultType === 'complete').length,
    storeBytes,
    workingBytes: (working - baseline) / count,
    listenBytes: (listening - working) / count,
    residualBytes: (drained - baseline) / count,
    baselineMiB: baseline / 2 ** 20,
    createSeconds,
    protocolVersion: LATEST_PROTOCOL_VERSION,
  };
}

async function warmUp(server, events) {
  const response = await server.handle(taskCall('await-event', {}, 'warm'), noContext());
  const taskId = response.result.taskId;
  const listen = server.handle(
    {
      jsonrpc: '2.0',
      id: 'warm-listen',
      method: 'subscriptions/listen',
      params: { notifications: { taskIds: [taskId] }, _meta: requestMeta() },
    },
    noContext(),
  );
  events.release();
  await listen;
}

async function until(condition, ms, describe) {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out: ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

process.on('message', (message) => {
  if (message?.type !== 'run') return;
  run(message).then(
    (result) => process.send({ type: 'memory', result }),
    (error) => process.send({ type: 'memory', error: String(error?.stack ?? error) }),
  );
});
ready();
