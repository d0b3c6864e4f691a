/**
 * The `immediateResultMs` grace period: until a task-mode call's answer is decided, the call belongs to its request
 * (RequestInfo.signal) and to the running server (close()).
 */
import { InMemoryTaskStore } from '@mcp-tasks/task-store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpServer } from '../src/index.js';
import { deferred, fakeContext, request } from './harness.js';

const OWNER = '\u0000anonymous';
const stores: InMemoryTaskStore[] = [];
const servers: McpServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  for (const store of stores.splice(0)) await store.close();
});

/**
 * A server whose `wait` tool waits for its signal. With `touchTask` it first sets its status, which decides for a
 * task; the store's `create` then waits for `openStore()`, so a test can act while the task is being created.
 */
function setup(options: { touchTask?: boolean } = {}) {
  const store = new InMemoryTaskStore();
  const storeGate = deferred();
  const gatedStore = new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      // Bound to the real store: its methods use private fields.
      if (key !== 'create') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: Parameters<InMemoryTaskStore['create']>) => {
        await storeGate.promise;
        return target.create(...args);
      };
    },
  });
  const errors: unknown[] = [];
  const server = new McpServer({
    serverInfo: { name: 'grace', version: '1.0.0' },
    taskStore: options.touchTask ? gatedStore : store,
    tasks: { immediateResultMs: 60_000 },
    onError: (error) => errors.push(error),
  });
  stores.push(store);
  servers.push(server);
  const started = deferred<AbortSignal>();
  let settled = false;
  let taskId: string | undefined;
  server.tool({
    name: 'wait',
    description: 'Waits for its signal',
    taskSupport: 'optional',
    handler: async (_args, ctx) => {
      started.resolve(ctx.signal);
      if (options.touchTask) await ctx.setStatus('started').catch(() => undefined);
      taskId = ctx.taskId;
      if (!ctx.signal.aborted) {
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      }
      settled = true;
      throw new Error('aborted');
    },
  });
  const call = () => {
    const fake = fakeContext();
    const response = server.handle(request('tools/call', { name: 'wait', arguments: {} }), fake.context);
    return { response, abort: fake.abort };
  };
  return {
    server,
    store,
    errors,
    started: started.promise,
    call,
    openStore: storeGate.resolve,
    settled: () => settled,
    taskId: () => taskId,
  };
}

describe('caller gives up during the grace period (RequestInfo.signal)', () => {
  it('aborts the tool and creates no task', async () => {
    const s = setup();
    const { response, abort } = s.call();
    const signal = await s.started;
    abort();
    const answer = await response;
    expect(signal.aborted).toBe(true);
    expect(answer).toMatchObject({ error: { code: -32603 } });
    expect(s.store.stats().tasks).toBe(0);
    expect(s.errors).toEqual([]);
  });

  it('cancels a task created while the caller left, so no orphan stays live', async () => {
    const s = setup({ touchTask: true });
    const { response, abort } = s.call();
    const signal = await s.started;
    abort();
    s.openStore();
    expect(await response).toMatchObject({ error: { code: -32603 } });
    expect(signal.aborted).toBe(true);
    await vi.waitFor(() => expect(s.settled()).toBe(true));
    expect(await s.store.get(OWNER, s.taskId() as string)).toMatchObject({ status: 'cancelled' });
    expect(s.errors).toEqual([]);
  });
});

describe('close() during the grace period', () => {
  it('aborts the tool, waits for it and answers "shutting down" without touching the store', async () => {
    const s = setup();
    const { response } = s.call();
    const signal = await s.started;
    await s.server.close();
    expect(signal.aborted).toBe(true);
    expect(s.settled()).toBe(true);
    expect(await response).toMatchObject({ error: { code: -32603, message: expect.stringMatching(/shutting down/) } });
    expect(s.store.stats().tasks).toBe(0);
    expect(s.errors).toEqual([]);
  });

  it('fails a task created while the server closed (shared store) and reports nothing', async () => {
    const s = setup({ touchTask: true });
    const { response } = s.call();
    await s.started;
    const closed = s.server.close();
    s.openStore();
    await closed;
    expect(await response).toMatchObject({ error: { code: -32603 } });
    expect(await s.store.get(OWNER, s.taskId() as string)).toMatchObject({
      status: 'failed',
      statusMessage: expect.stringMatching(/shut down/),
    });
    expect(s.errors).toEqual([]);
  });

  it('the request signal no longer matters once the CreateTaskResult is returned', async () => {
    const store = new InMemoryTaskStore();
    const server = new McpServer({ serverInfo: { name: 'grace', version: '1.0.0' }, taskStore: store });
    stores.push(store);
    servers.push(server);
    const started = deferred<AbortSignal>();
    server.tool({
      name: 'wait',
      description: 'Waits',
      taskSupport: 'optional',
      handler: async (_args, ctx) => {
        started.resolve(ctx.signal);
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        return { content: [] };
      },
    });
    const fake = fakeContext();
    const answer = await server.handle(request('tools/call', { name: 'wait', arguments: {} }), fake.context);
    expect(answer).toMatchObject({ result: { resultType: 'task' } });
    fake.abort();
    const signal = await started.promise;
    expect(signal.aborted).toBe(false);
  });
});
