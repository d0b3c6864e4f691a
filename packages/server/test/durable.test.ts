/**
 * Durable execution in one process, on the in-memory store: steps recorded and replayed, parked questions, drain,
 * fronts and workers, retries, and the registration checks. (Real processes on PostgreSQL: apps/tool-server e2e.)
 */
import { InMemoryTaskStore, type TaskStore } from '@mcp-tasks/task-store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  EXECUTION_META_KEY,
  type ExecutionEvent,
  type ExecutionOptions,
  McpServer,
  RetryableError,
  type ToolContext,
} from '../src/index.js';
import { ASK, deferred, expectCreateTask, Loopback } from './harness.js';

const OWNER = '\u0000anonymous';
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function sharedStore(): InMemoryTaskStore {
  const store = new InMemoryTaskStore();
  cleanups.push(() => store.close());
  return store;
}

/** A server on `store` (which outlives it, as a database does), recording its execution events. */
function instance(workerId: string, store: TaskStore, execution: ExecutionOptions = {}) {
  const events: ExecutionEvent[] = [];
  const errors: unknown[] = [];
  const server = new McpServer({
    serverInfo: { name: workerId, version: '1.0.0' },
    taskStore: store,
    closeTaskStore: false,
    tasks: { workerId, leaseMs: 2_000 },
    execution: {
      claimIntervalMs: 20,
      retry: { initialDelayMs: 10, maxDelayMs: 40 },
      onEvent: (event) => events.push(event),
      ...execution,
    },
    onError: (error) => errors.push(error),
  });
  cleanups.push(() => server.close({ graceMs: 100 }));
  return { server, client: new Loopback(server), events, errors };
}

/** Counts how often each step's function ran, over every instance. */
function counter() {
  const runs = new Map<string, number>();
  return {
    runs,
    hit(name: string) {
      runs.set(name, (runs.get(name) ?? 0) + 1);
    },
  };
}

/** Registers `deploy` (build → push → verify) on `server`; `push` waits for `gate` when one is given. */
function deployTool(server: McpServer, count: ReturnType<typeof counter>, gate?: () => Promise<void>) {
  server.tool({
    name: 'deploy',
    description: 'Three durable steps',
    taskSupport: 'required',
    durable: true,
    handler: async (_args, ctx: ToolContext) => {
      const image = await ctx.step('build', () => {
        count.hit('build');
        return { image: 'app:1', builtAt: new Date(0) };
      });
      await ctx.step('push', async (signal) => {
        count.hit('push');
        if (gate !== undefined) {
          await Promise.race([
            gate(),
            new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
          ]);
        }
        return 'pushed';
      });
      const verified = await ctx.step('verify', () => {
        count.hit('verify');
        return true;
      });
      return { content: [{ type: 'text', text: `${image.image} ${String(image.builtAt)} ${verified}` }] };
    },
  });
}

describe('steps', () => {
  it('records each step once and hands the replayed value (JSON) to the tool', async () => {
    const store = sharedStore();
    const a = instance('worker-a', store);
    const count = counter();
    deployTool(a.server, count);
    const taskId = expectCreateTask(await a.client.call('deploy'));
    const done = await a.client.waitForTerminal(taskId);
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'app:1 1970-01-01T00:00:00.000Z true' }] },
    });
    expect([...count.runs]).toEqual([
      ['build', 1],
      ['push', 1],
      ['verify', 1],
    ]);
    const steps = await store.steps(OWNER, taskId);
    expect(steps.map((step) => [step.name, step.attempt])).toEqual([
      ['build', 1],
      ['push', 1],
      ['verify', 1],
    ]);
  });

  it('drain: the step in flight finishes, the next runs on another worker, no completed step runs twice', async () => {
    const store = sharedStore();
    const a = instance('worker-a', store);
    const b = instance('worker-b', store);
    const count = counter();
    const pushGate = deferred();
    const pushing = deferred();
    deployTool(a.server, count, async () => {
      pushing.resolve();
      await pushGate.promise;
    });
    deployTool(b.server, count);
    const taskId = expectCreateTask(await a.client.call('deploy'));
    await pushing.promise;
    const closing = a.server.close({ graceMs: 5_000 });
    pushGate.resolve();
    await closing;
    const done = await b.client.waitForTerminal(taskId);
    expect(done).toMatchObject({ status: 'completed' });
    expect([...count.runs]).toEqual([
      ['build', 1],
      ['push', 1],
      ['verify', 1],
    ]);
    const steps = await store.steps(OWNER, taskId);
    expect(steps.map((step) => [step.name, step.attempt])).toEqual([
      ['build', 1],
      ['push', 1],
      ['verify', 2],
    ]);
    expect(a.events).toContainEqual({ type: 'handed_back', taskId, attempt: 1 });
    expect(b.events).toContainEqual({ type: 'claimed', taskId, attempt: 2 });
    // Clients see the steps and the re-run in the result's _meta.
    expect((done._meta as Record<string, unknown>)[EXECUTION_META_KEY]).toEqual({
      state: 'running',
      attempt: 2,
      steps: [
        { name: 'build', attempt: 1 },
        { name: 'push', attempt: 1 },
        { name: 'verify', attempt: 2 },
      ],
    });
  });

  it('drain: a step still running when the grace ends runs again on another worker', async () => {
    const store = sharedStore();
    const a = instance('worker-a', store);
    const b = instance('worker-b', store);
    const count = counter();
    const pushing = deferred();
    deployTool(a.server, count, async () => {
      pushing.resolve();
      await new Promise(() => undefined);
    });
    deployTool(b.server, count);
    const taskId = expectCreateTask(await a.client.call('deploy'));
    await pushing.promise;
    await a.server.close({ graceMs: 20 });
    // Handed back at once: no longer worker-a's (worker-b may have claimed it already).
    expect((await store.get(OWNER, taskId))?.lease?.worker).not.toBe('worker-a');
    expect(await b.client.waitForTerminal(taskId)).toMatchObject({ status: 'completed' });
    expect([...count.runs]).toEqual([
      ['build', 1],
      ['push', 2],
      ['verify', 1],
    ]);
  });
});

describe('parked input', () => {
  function approvalTool(server: McpServer, count: ReturnType<typeof counter>) {
    server.tool({
      name: 'approve',
      description: 'Prepares, asks, applies',
      taskSupport: 'required',
      durable: true,
      handler: async (_args, ctx) => {
        await ctx.step('prepare', () => count.hit('prepare'));
        const answer = await ctx.elicit(ASK);
        const applied = await ctx.step('apply', () => {
          count.hit('apply');
          return answer.content?.ok === true ? 'applied' : 'skipped';
        });
        return { content: [{ type: 'text', text: applied }] };
      },
    });
  }

  it('parks a question after parkAfterMs (nothing left in memory); the answer at another instance wakes it', async () => {
    const store = sharedStore();
    const a = instance('worker-a', store, { parkAfterMs: 10 });
    const b = instance('worker-b', store, { parkAfterMs: 10 });
    const count = counter();
    approvalTool(a.server, count);
    approvalTool(b.server, count);
    const taskId = expectCreateTask(await a.client.call('approve'));
    await vi.waitFor(async () => expect((await store.get(OWNER, taskId))?.execution?.state).toBe('parked'));
    const parked = await store.get(OWNER, taskId);
    expect(parked?.lease).toBeUndefined();
    expect(a.events).toContainEqual({ type: 'parked', taskId, attempt: 1 });
    const asked = await b.client.waitForTask(taskId, (task) => task.status === 'input_required');
    const [key] = Object.keys(asked.inputRequests as object);
    await b.client.ok('tasks/update', {
      taskId,
      inputResponses: { [key ?? '']: { action: 'accept', content: { ok: true } } },
    });
    expect(await b.client.waitForTerminal(taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'applied' }] },
    });
    expect([...count.runs]).toEqual([
      ['prepare', 1],
      ['apply', 1],
    ]);
  });

  it('a parked task survives the restart of every instance', async () => {
    const store = sharedStore();
    const count = counter();
    const first = instance('worker-a', store, { parkAfterMs: 10 });
    approvalTool(first.server, count);
    const taskId = expectCreateTask(await first.client.call('approve'));
    await vi.waitFor(async () => expect((await store.get(OWNER, taskId))?.execution?.state).toBe('parked'));
    await first.server.close({ graceMs: 100 });
    const second = instance('worker-c', store, { parkAfterMs: 10 });
    approvalTool(second.server, count);
    const asked = await second.client.waitForTask(taskId, (task) => task.status === 'input_required');
    const [key] = Object.keys(asked.inputRequests as object);
    await second.client.ok('tasks/update', {
      taskId,
      inputResponses: { [key ?? '']: { action: 'accept', content: { ok: false } } },
    });
    expect(await second.client.waitForTerminal(taskId)).toMatchObject({ result: { content: [{ text: 'skipped' }] } });
    expect([...count.runs]).toEqual([
      ['prepare', 1],
      ['apply', 1],
    ]);
  });

  it('a drain parks a waiting question at once', async () => {
    const store = sharedStore();
    const count = counter();
    const a = instance('worker-a', store, { parkAfterMs: 60_000 });
    approvalTool(a.server, count);
    const taskId = expectCreateTask(await a.client.call('approve'));
    await a.client.waitForTask(taskId, (task) => task.status === 'input_required');
    await a.server.close({ graceMs: 5_000 });
    expect((await store.get(OWNER, taskId))?.execution?.state).toBe('parked');
  });
});

describe('workers', () => {
  it('a front queues the task; a worker runs it', async () => {
    const store = sharedStore();
    const count = counter();
    const front = instance('front-1', store, { role: 'front' });
    const worker = instance('worker-1', store, { role: 'worker' });
    deployTool(front.server, count);
    deployTool(worker.server, count);
    const taskId = expectCreateTask(await front.client.call('deploy'));
    expect(await front.client.waitForTerminal(taskId)).toMatchObject({ status: 'completed' });
    expect(front.events).toEqual([]);
    expect(worker.events.filter((event) => event.type === 'step')).toHaveLength(3);
  });

  it('retries a step that throws RetryableError with backoff, visible in statusMessage, until it succeeds', async () => {
    const store = sharedStore();
    const a = instance('worker-a', store);
    let calls = 0;
    const messages: string[] = [];
    store.watch((event) => {
      if (event.type !== 'expired' && event.record.statusMessage !== undefined)
        messages.push(event.record.statusMessage);
    });
    a.server.tool({
      name: 'flaky',
      description: 'Fails twice',
      taskSupport: 'required',
      durable: true,
      handler: async (_args, ctx) => {
        const value = await ctx.step('fetch', () => {
          calls += 1;
          if (calls < 3) throw new RetryableError('registry busy');
          return calls;
        });
        return { content: [{ type: 'text', text: `fetched on call ${value}` }] };
      },
    });
    const taskId = expectCreateTask(await a.client.call('flaky'));
    expect(await a.client.waitForTerminal(taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'fetched on call 3' }] },
    });
    const retries = a.events.filter((event) => event.type === 'retry');
    expect(retries.map((event) => [event.attempt, event.delayMs])).toEqual([
      [1, 10],
      [2, 20],
    ]);
    expect(messages).toContain('Step fetch failed on attempt 1 of 5 (registry busy); retrying in 1 s');
  });

  it('ends the task with the error once the attempts are used up', async () => {
    const store = sharedStore();
    const a = instance('worker-a', store, { retry: { maxAttempts: 2, initialDelayMs: 5 } });
    a.server.tool({
      name: 'broken',
      description: 'Always busy',
      taskSupport: 'required',
      durable: true,
      handler: async (_args, ctx) => {
        await ctx.step('fetch', () => {
          throw new RetryableError('still busy');
        });
        return { content: [] };
      },
    });
    const taskId = expectCreateTask(await a.client.call('broken'));
    expect(await a.client.waitForTerminal(taskId)).toMatchObject({
      status: 'completed',
      result: { isError: true, content: [{ text: 'still busy' }] },
    });
  });

  it('fails a claimed task whose tool is not a durable tool on the worker, naming it', async () => {
    const store = sharedStore();
    const front = instance('front-1', store, { role: 'front' });
    const worker = instance('worker-1', store);
    deployTool(front.server, counter());
    worker.server.tool({
      name: 'other',
      description: 'x',
      taskSupport: 'required',
      durable: true,
      handler: () => ({ content: [] }),
    });
    const taskId = expectCreateTask(await front.client.call('deploy'));
    expect(await front.client.waitForTerminal(taskId)).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'Tool deploy is not registered as a durable tool on worker worker-1' },
    });
  });

  it('refuses a durable step result over the step limit with a clear error', async () => {
    const store = new InMemoryTaskStore({ maxStepBytes: 100 });
    cleanups.push(() => store.close());
    const a = instance('worker-a', store);
    a.server.tool({
      name: 'big',
      description: 'Too big',
      taskSupport: 'required',
      durable: true,
      handler: async (_args, ctx) => {
        await ctx.step('blob', () => 'x'.repeat(200));
        return { content: [] };
      },
    });
    const taskId = expectCreateTask(await a.client.call('big'));
    const done = await a.client.waitForTerminal(taskId);
    expect(done).toMatchObject({ status: 'completed', result: { isError: true } });
    expect(JSON.stringify(done.result)).toContain('Step blob: result of 202 bytes exceeds 100 bytes');
  });
});

describe('registration', () => {
  it('refuses a durable tool without task support, and on a store that cannot keep durable work', () => {
    const store = sharedStore();
    const { server } = instance('worker-a', store);
    expect(() =>
      server.tool({ name: 'sync', description: 'x', durable: true, handler: () => ({ content: [] }) }),
    ).toThrow("Tool sync is durable: its taskSupport must be 'optional' or 'required'");
    const plain: TaskStore = {
      create: (owner, options) => store.create(owner, options),
      get: (owner, taskId) => store.get(owner, taskId),
      list: (owner, options) => store.list(owner, options),
      swap: (owner, taskId, version, next) => store.swap(owner, taskId, version, next),
      expireDue: (now, limit) => store.expireDue(now, limit),
      lapsedLeases: (now, limit) => store.lapsedLeases(now, limit),
      watch: (listener) => store.watch(listener),
      close: async () => undefined,
    };
    const other = instance('worker-b', plain).server;
    expect(() =>
      other.tool({
        name: 'job',
        description: 'x',
        taskSupport: 'required',
        durable: true,
        handler: () => ({ content: [] }),
      }),
    ).toThrow('Tool job is durable, but the task store does not implement DurableTaskStore');
  });
});
