/**
 * Servers that die and shut down: close({ graceMs }) always ends, a lost worker's tasks fail or resume elsewhere,
 * and one input API for tools in every mode.
 */
import { InMemoryTaskStore, type TaskEvent, type TaskStore } from '@mcp-tasks/task-store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isTaskAbort, McpServer, type TaskAbortError } from '../src/index.js';
import { BASE_CAPS, expectCreateTask, Loopback } from './harness.js';

const OWNER = '\u0000anonymous';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ASK = {
  message: 'Name?',
  requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } } },
};

/** A store link that can be cut: afterwards every call fails and no event arrives, as for a dead process. */
function cuttable(inner: TaskStore) {
  let cut = false;
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (cut) throw new Error('store unreachable');
      return call(...args);
    };
  const store: TaskStore = {
    create: guard((owner, options) => inner.create(owner, options)),
    get: guard((owner, taskId) => inner.get(owner, taskId)),
    list: guard((owner, options) => inner.list(owner, options)),
    swap: guard((owner, taskId, version, next) => inner.swap(owner, taskId, version, next)),
    expireDue: guard((now, limit) => inner.expireDue(now, limit)),
    lapsedLeases: guard((now, limit) => inner.lapsedLeases(now, limit)),
    watch: guard((listener) => inner.watch((event) => cut || listener(event))),
    close: async () => undefined,
  };
  return { store, cut: () => (cut = true) };
}

function server(
  name: string,
  options: ConstructorParameters<typeof McpServer>[0]['tasks'] & { store?: TaskStore } = {},
) {
  const { store, ...tasks } = options;
  const errors: unknown[] = [];
  const instance = new McpServer({
    serverInfo: { name, version: '1.0.0' },
    ...(store === undefined ? {} : { taskStore: store }),
    tasks: { workerId: name, ...tasks },
    onError: (error) => errors.push(error),
  });
  cleanups.push(() => instance.close({ graceMs: 50 }));
  return { server: instance, client: new Loopback(instance), errors };
}

describe('close({ graceMs })', () => {
  it('ends although a tool ignores its signal: the task is failed with a clear message and the store closed', async () => {
    const store = new InMemoryTaskStore();
    const events: TaskEvent[] = [];
    await store.watch((event) => events.push(event));
    // An observable store the server owns (closes), as it owns its default one.
    const closing = new McpServer({
      serverInfo: { name: 'closing', version: '1' },
      taskStore: store,
      closeTaskStore: true,
    });
    let reason: unknown;
    closing.tool({
      name: 'stubborn',
      description: 'Ignores its signal and never ends',
      taskSupport: 'optional',
      handler: (_args, ctx) => {
        ctx.signal.addEventListener('abort', () => {
          reason = ctx.signal.reason;
        });
        return new Promise(() => undefined);
      },
    });
    const taskId = expectCreateTask(await new Loopback(closing).call('stubborn'));
    await closing.close({ graceMs: 500 });
    expect(isTaskAbort(reason, 'shutdown')).toBe(true);
    const last = events.at(-1);
    expect(last?.type === 'updated' && last.record).toMatchObject({
      taskId,
      status: 'failed',
      error: { code: -32603, message: 'Server shut down' },
      statusMessage: 'The server shut down before the tool finished',
    });
    await expect(store.get('\u0000anonymous', taskId)).rejects.toMatchObject({ code: 'closed' });
  });
});

describe('a finished tool', () => {
  it("has its signal aborted with 'Task finished' once released, not with a task-event reason for its own outcome", async () => {
    const made = new McpServer({ serverInfo: { name: 'finishing', version: '1' } });
    cleanups.push(() => made.close());
    const reasons: unknown[] = [];
    made.tool({
      name: 'quick',
      description: 'Watches its signal, then completes',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        ctx.signal.addEventListener('abort', () => reasons.push(ctx.signal.reason));
        return { content: [{ type: 'text', text: 'done' }] };
      },
    });
    const client = new Loopback(made);
    for (let i = 0; i < 2; i++) {
      const taskId = expectCreateTask(await client.call('quick'));
      expect(await client.waitForTerminal(taskId)).toMatchObject({ status: 'completed' });
    }
    await vi.waitFor(() => expect(reasons).toHaveLength(2));
    for (const reason of reasons) {
      expect(isTaskAbort(reason)).toBe(false);
      expect(reason).toEqual(new Error('Task finished'));
    }
  });
});

describe('one input API', () => {
  function askingServer() {
    const made = server('asking', { immediateResultMs: 60_000 });
    const seen: Array<{ mode: string; taskId: string | undefined }> = [];
    made.server.tool({
      name: 'greet_twice',
      description: 'Asks two questions, then greets',
      taskSupport: 'optional',
      handler: async (_args, ctx) => {
        seen.push({ mode: ctx.mode, taskId: ctx.taskId });
        const first = await ctx.elicit(ASK);
        const second = await ctx.elicit(ASK);
        seen.push({ mode: ctx.mode, taskId: ctx.taskId });
        return { content: [{ type: 'text', text: `hello ${first.content?.name} and ${second.content?.name}` }] };
      },
    });
    return { ...made, seen };
  }

  it('gives ctx.taskId during the grace period, and it is the id of the task the call becomes', async () => {
    const { client, seen } = askingServer();
    const taskId = expectCreateTask(await client.call('greet_twice'));
    expect(seen[0]).toEqual({ mode: 'grace', taskId });
    for (const name of ['ann', 'bob']) {
      const task = await client.waitForTask(taskId, (t) => t.status === 'input_required');
      const [key] = Object.keys(task.inputRequests as object);
      await client.ok('tasks/update', {
        taskId,
        inputResponses: { [key ?? '']: { action: 'accept', content: { name } } },
      });
    }
    const done = await client.waitForTerminal(taskId);
    expect(done.result).toMatchObject({ content: [{ text: 'hello ann and bob' }] });
    expect(seen[1]).toEqual({ mode: 'task', taskId });
  });

  it('serves the same ctx.elicit synchronously by MRTR rounds, replaying earlier answers', async () => {
    const { client, seen } = askingServer();
    const caps = { caps: BASE_CAPS };
    const first = await client.call('greet_twice', {}, caps);
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: { 'ask-1': { method: 'elicitation/create' } },
    });
    expect(seen[0]).toEqual({ mode: 'sync', taskId: undefined });
    const answer = (name: string) => ({ action: 'accept', content: { name } });
    const second = await client.ok(
      'tools/call',
      {
        name: 'greet_twice',
        arguments: {},
        inputResponses: { 'ask-1': answer('ann') },
        requestState: first.requestState,
      },
      caps,
    );
    expect(second).toMatchObject({ resultType: 'input_required', inputRequests: { 'ask-2': {} } });
    const third = await client.ok(
      'tools/call',
      {
        name: 'greet_twice',
        arguments: {},
        inputResponses: { 'ask-2': answer('bob') },
        requestState: second.requestState,
      },
      caps,
    );
    expect(third).toMatchObject({ resultType: 'complete', content: [{ text: 'hello ann and bob' }] });
  });
});

describe('leases', () => {
  function pair(resumable: boolean) {
    const shared = new InMemoryTaskStore();
    cleanups.push(() => shared.close());
    const link = cuttable(shared);
    const a = server('worker-a', { store: link.store, leaseMs: 150 });
    const b = server('worker-b', { store: shared, leaseMs: 150 });
    const reasons: unknown[] = [];
    for (const { server: s } of [a, b]) {
      const name = s === a.server ? 'worker-a' : 'worker-b';
      s.tool({
        name: 'job',
        description: 'Asks a name, then reports where it ran',
        taskSupport: 'required',
        resumable,
        handler: async (_args, ctx) => {
          ctx.signal.addEventListener('abort', () => reasons.push(ctx.signal.reason));
          const answer = await ctx.elicit(ASK);
          return { content: [{ type: 'text', text: `${name} greets ${answer.content?.name}` }] };
        },
      });
    }
    return { a, b, cut: link.cut, reasons, shared };
  }

  it('fails the task of a dead worker with the lost-worker error; the cut-off worker aborts its tool', async () => {
    const { a, b, cut, reasons } = pair(false);
    const taskId = expectCreateTask(await a.client.call('job'));
    await b.client.waitForTask(taskId, (t) => t.status === 'input_required');
    cut();
    const task = await b.client.waitForTerminal(taskId);
    expect(task).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'Worker worker-a stopped renewing its lease; the task was lost' },
    });
    await vi.waitFor(() => expect(reasons.some((reason) => isTaskAbort(reason, 'lease_lost'))).toBe(true));
    expect((reasons.find((r) => isTaskAbort(r)) as TaskAbortError).kind).toBe('lease_lost');
  });

  it('restarts a resumable tool on a live worker, which completes it with the answer given there', async () => {
    const { a, b, cut, shared } = pair(true);
    const taskId = expectCreateTask(await a.client.call('job'));
    const asked = await b.client.waitForTask(taskId, (t) => t.status === 'input_required');
    cut();
    const [key] = Object.keys(asked.inputRequests as object);
    // Worker b takes the lease over and runs the tool again; the question stays outstanding under the same key.
    await vi.waitFor(async () => expect((await shared.get(OWNER, taskId))?.lease?.worker).toBe('worker-b'));
    expect((await shared.get(OWNER, taskId))?.inputRequests).toHaveProperty(key ?? '');
    await b.client.ok('tasks/update', {
      taskId,
      inputResponses: { [key ?? '']: { action: 'accept', content: { name: 'ann' } } },
    });
    const task = await b.client.waitForTerminal(taskId);
    expect(task).toMatchObject({ status: 'completed', result: { content: [{ text: 'worker-b greets ann' }] } });
  });

  it('on close, hands a resumable tool that stops promptly on its signal to another worker instead of failing it', async () => {
    const { a, b, reasons, shared } = pair(true);
    const taskId = expectCreateTask(await a.client.call('job'));
    await b.client.waitForTask(taskId, (t) => t.status === 'input_required');
    // The tool's ctx.elicit rejects on the shutdown abort, well within the grace period.
    await a.server.close({ graceMs: 5_000 });
    expect(reasons.some((reason) => isTaskAbort(reason, 'shutdown'))).toBe(true);
    expect((await shared.get(OWNER, taskId))?.status).not.toBe('failed');
    await vi.waitFor(async () => expect((await shared.get(OWNER, taskId))?.lease?.worker).toBe('worker-b'));
    const asked = await b.client.waitForTask(taskId, (t) => t.status === 'input_required');
    const [key] = Object.keys(asked.inputRequests as object);
    await b.client.ok('tasks/update', {
      taskId,
      inputResponses: { [key ?? '']: { action: 'accept', content: { name: 'bob' } } },
    });
    const task = await b.client.waitForTerminal(taskId);
    expect(task).toMatchObject({ status: 'completed', result: { content: [{ text: 'worker-b greets bob' }] } });
  });

  it('on close, still fails the task of a tool that is not resumable', async () => {
    const { a, b } = pair(false);
    const taskId = expectCreateTask(await a.client.call('job'));
    await b.client.waitForTask(taskId, (t) => t.status === 'input_required');
    await a.server.close({ graceMs: 5_000 });
    const task = await b.client.waitForTerminal(taskId);
    expect(task).toMatchObject({ status: 'failed', error: { code: -32603, message: 'Server shut down' } });
  });
});
