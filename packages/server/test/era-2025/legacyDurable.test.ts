/**
 * Durable tools in 2025-11-25 sessions, in one process on the in-memory store: steps recorded and replayed, a
 * question parked after `parkAfterMs`, and the three ways a parked task is answered: the client's late response to
 * the original request, a `tasks/result` (also in a new session of another instance), and a 2026-era `tasks/update`.
 */
import {
  LegacyCreateTaskResultSchema,
  type OutboundRequest,
  type PeerRequestOptions,
  type PeerSession,
  type RequestContext,
  TransportError,
  type TransportResponse,
} from '@mcp-tasks/protocol';
import { InMemoryTaskStore } from '@mcp-tasks/task-store';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ExecutionEvent, McpServer, type ToolContext } from '../../src/index.js';
import { ASK, deferred, Loopback } from '../harness.js';

const RELATED = 'io.modelcontextprotocol/related-task';
/** A server-to-client request the test answers when it chooses. */
interface Held {
  readonly message: OutboundRequest;
  answer(result: Record<string, unknown>): void;
  refuse(): void;
}

let nextSession = 1;

/** A 2025-era session whose requests wait for the test to answer them (`held`); aborted ones are dropped. */
class HeldSession implements PeerSession {
  readonly id = `held-${nextSession++}`;
  readonly held: Held[] = [];
  readonly #controller = new AbortController();
  readonly closed = this.#controller.signal;

  notify(): void {}

  request(message: OutboundRequest, options?: PeerRequestOptions): Promise<TransportResponse> {
    return holdRequest(this.held, message, options);
  }
}

function holdRequest(held: Held[], message: OutboundRequest, options?: PeerRequestOptions) {
  return new Promise<TransportResponse>((resolve, reject) => {
    const entry: Held = {
      message,
      answer: (result) => resolve({ jsonrpc: '2.0', id: 1, result }),
      refuse: () => resolve({ jsonrpc: '2.0', id: 1, error: { code: -1, message: 'User declined to answer' } }),
    };
    held.push(entry);
    options?.signal?.addEventListener('abort', () => {
      held.splice(held.indexOf(entry), 1);
      reject(new TransportError('closed', 'request abandoned'));
    });
  });
}

/** A 2025-era client on a {@link HeldSession}; with `principal`, authenticated as it. */
class Client2025 {
  readonly session = new HeldSession();
  /** Requests sent on the stream of a request (as Streamable HTTP does), when `streams` is set. */
  readonly onStream: Held[] = [];
  #id = 1;

  constructor(
    readonly server: McpServer,
    readonly principal?: string,
  ) {}

  async ok(method: string, params: Record<string, unknown> = {}, streams = false) {
    const context: RequestContext = {
      notify: () => undefined,
      signal: new AbortController().signal,
      session: this.session,
      ...(this.principal === undefined ? {} : { principal: this.principal }),
      ...(streams ? { request: (message, options) => holdRequest(this.onStream, message, options) } : {}),
    };
    const response = await this.server.handle({ jsonrpc: '2.0', id: this.#id++, method, params }, context);
    if (response === undefined || !('result' in response)) throw new Error(JSON.stringify(response));
    return response.result as Record<string, unknown>;
  }

  async connect(): Promise<void> {
    await this.ok('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: {} },
      clientInfo: { name: 'durable-2025', version: '1.0.0' },
    });
    await this.server.handle({ jsonrpc: '2.0', method: 'notifications/initialized' }, {
      notify: () => undefined,
      signal: new AbortController().signal,
      session: this.session,
    } as RequestContext);
  }

  async start(args: Record<string, unknown> = {}): Promise<string> {
    const created = await this.ok('tools/call', { name: 'approve', arguments: args, task: {} });
    return LegacyCreateTaskResultSchema.parse(created).task.taskId;
  }
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** What the `approve` tool did, over every instance. */
const runs = { steps: new Map<string, number>(), parkedExits: 0, gate: deferred() };

/** A server on `store` with the durable `approve` tool (prepare, ask, apply; with `twice`, ask again, finish). */
function instance(workerId: string, store: InMemoryTaskStore, parkAfterMs = 10) {
  const events: ExecutionEvent[] = [];
  const server = new McpServer({
    serverInfo: { name: workerId, version: '1.0.0' },
    taskStore: store,
    closeTaskStore: false,
    tasks: { workerId, leaseMs: 2_000 },
    execution: { parkAfterMs, claimIntervalMs: 20, onEvent: (event) => events.push(event) },
  });
  server.tool({
    name: 'approve',
    description: 'Prepares, asks, applies',
    taskSupport: 'optional',
    durable: true,
    handler: async (args, ctx: ToolContext) => {
      await step(ctx, 'prepare');
      if ((args as { gated?: boolean }).gated === true) await runs.gate.promise;
      const first = await ask(ctx);
      await step(ctx, 'apply');
      const second = (args as { twice?: boolean }).twice === true ? await ask(ctx) : undefined;
      return { content: [{ type: 'text', text: `${String(first.content?.ok)} ${String(second?.content?.ok)}` }] };
    },
  });
  cleanups.push(() => server.close({ graceMs: 100 }));
  return { server, events };
}

function step(ctx: ToolContext, name: string) {
  return ctx.step(name, () => runs.steps.set(name, (runs.steps.get(name) ?? 0) + 1).size);
}

async function ask(ctx: ToolContext) {
  try {
    return await ctx.elicit(ASK);
  } catch (error) {
    if (ctx.signal.reason?.kind === 'parked') runs.parkedExits += 1;
    throw error;
  }
}

function sharedStore(): InMemoryTaskStore {
  runs.steps.clear();
  runs.parkedExits = 0;
  runs.gate = deferred();
  const store = new InMemoryTaskStore();
  cleanups.push(() => store.close());
  return store;
}

/** Waits until the task is parked: no lease, and the run that asked ended (the call holds nothing). */
async function parked(store: InMemoryTaskStore, owner: string, taskId: string, exits = 1) {
  await vi.waitFor(async () => {
    const record = await store.get(owner, taskId);
    expect(record?.execution?.state).toBe('parked');
    expect(record?.lease).toBeUndefined();
    expect(runs.parkedExits).toBe(exits);
  });
}

/**
 * A task of the durable `approve` tool started on `worker-a` and parked at its question: with `principal`, that
 * user's (who owns it); without, the session's.
 */
async function parkedTask(options: { principal?: string; args?: Record<string, unknown> } = {}) {
  const store = sharedStore();
  const a = instance('worker-a', store);
  const client = new Client2025(a.server, options.principal);
  await client.connect();
  const taskId = await client.start(options.args);
  const owner = options.principal === undefined ? `\u0000session:${client.session.id}` : `user:${options.principal}`;
  await parked(store, owner, taskId);
  return { store, a, client, taskId };
}

/** An unauthenticated client's task whose question (never parked) waits in the client's session. */
async function askedWithoutPark() {
  const store = sharedStore();
  const a = instance('worker-a', store, 60_000);
  const client = new Client2025(a.server);
  await client.connect();
  const taskId = await client.start();
  await vi.waitFor(() => expect(client.session.held).toHaveLength(1));
  return { store, a, client, taskId };
}

const ACCEPT = (ok: boolean) => ({ action: 'accept', content: { ok } });

describe('durable tools in 2025-11-25 sessions', () => {
  it('L-T11: parks the question; the late answer to the original request (no principal: the session owns it) wakes it', async () => {
    const { a, client, taskId } = await parkedTask();
    expect(a.events).toContainEqual({ type: 'parked', taskId, attempt: 1 });
    const [question] = client.session.held;
    expect(question?.message).toMatchObject({
      method: 'elicitation/create',
      params: { _meta: { [RELATED]: { taskId } } },
    });
    question?.answer(ACCEPT(true));
    const result = await client.ok('tasks/result', { taskId });
    expect(result).toMatchObject({ content: [{ text: 'true undefined' }], _meta: { [RELATED]: { taskId } } });
    expect([...runs.steps]).toEqual([
      ['prepare', 1],
      ['apply', 1],
    ]);
    expect(a.events.filter((event) => event.type === 'claimed')).toEqual([{ type: 'claimed', taskId, attempt: 2 }]);
  });

  it('L-T12: after every instance restarted, tasks/result in a new session asks the stored questions and completes the task', async () => {
    const { store, a, client: first, taskId } = await parkedTask({ principal: 'alice', args: { twice: true } });
    await a.server.close({ graceMs: 100 });
    const b = instance('worker-b', store);
    const client = new Client2025(b.server, 'alice');
    await client.connect();
    const waiting = client.ok('tasks/result', { taskId }, true);
    await vi.waitFor(() => expect(client.onStream).toHaveLength(1));
    const [question] = client.onStream.splice(0);
    expect(question?.message).toMatchObject({
      method: 'elicitation/create',
      params: { _meta: { [RELATED]: { taskId } } },
    });
    question?.answer(ACCEPT(true));
    // The run woken by the answer asks again, then parks: the waiting tasks/result relays that question too.
    await vi.waitFor(() => expect(client.onStream).toHaveLength(1));
    await parked(store, 'user:alice', taskId, 2);
    client.onStream[0]?.answer(ACCEPT(false));
    expect(await waiting).toMatchObject({ content: [{ text: 'true false' }] });
    expect([...runs.steps]).toEqual([
      ['prepare', 1],
      ['apply', 1],
    ]);
    // The first session's request, answered late, finds its question closed: nothing changes.
    first.session.held[0]?.answer(ACCEPT(false));
    expect(await client.ok('tasks/get', { taskId })).toMatchObject({ status: 'completed' });
  });

  it('a question refused through tasks/result ends that call with -32603; the next tasks/result asks again', async () => {
    const { store, a, taskId } = await parkedTask({ principal: 'alice' });
    // On another instance: here the first session still holds the question as its own request (not sent again).
    await a.server.close({ graceMs: 100 });
    const client = new Client2025(instance('worker-b', store).server, 'alice');
    await client.connect();
    const refusing = client.ok('tasks/result', { taskId }, true);
    await vi.waitFor(() => expect(client.onStream).toHaveLength(1));
    client.onStream.splice(0)[0]?.refuse();
    const refused = await refusing.then(
      () => undefined,
      (error: Error) => JSON.parse(error.message),
    );
    expect(refused).toMatchObject({
      error: {
        code: -32603,
        message: expect.stringMatching(/did not answer elicitation\/create of task .*User declined to answer/),
      },
    });
    // Still parked, with its question open.
    expect(Object.keys((await store.get('user:alice', taskId))?.inputRequests ?? {})).toHaveLength(1);
    const waiting = client.ok('tasks/result', { taskId }, true);
    await vi.waitFor(() => expect(client.onStream).toHaveLength(1));
    client.onStream[0]?.answer(ACCEPT(true));
    expect(await waiting).toMatchObject({ content: [{ text: 'true undefined' }] });
  });

  it('a 2026-era tasks/update of the same principal answers the parked question', async () => {
    const { store, client, taskId } = await parkedTask({ principal: 'alice' });
    const b = instance('worker-b', store);
    const modern = new Loopback(b.server, { principal: 'alice' });
    const asked = await modern.waitForTask(taskId, (task) => task.status === 'input_required');
    const [key] = Object.keys(asked.inputRequests as object);
    await modern.ok('tasks/update', { taskId, inputResponses: { [key ?? '']: ACCEPT(false) } });
    expect(await client.ok('tasks/result', { taskId })).toMatchObject({ content: [{ text: 'false undefined' }] });
    expect([...runs.steps]).toEqual([
      ['prepare', 1],
      ['apply', 1],
    ]);
  });

  it('an answer before the park goes straight to the running call: no park, no second run', async () => {
    const { a, client, taskId } = await askedWithoutPark();
    client.session.held[0]?.answer(ACCEPT(true));
    expect(await client.ok('tasks/result', { taskId })).toMatchObject({ content: [{ text: 'true undefined' }] });
    expect(a.events.map((event) => event.type)).toEqual(['step', 'step']);
  });

  it('L-T12: a question asked while a tasks/result waits goes on its stream only, once', async () => {
    const store = sharedStore();
    const a = instance('worker-a', store, 60_000);
    const client = new Client2025(a.server);
    await client.connect();
    const taskId = await client.start({ gated: true });
    const waiting = client.ok('tasks/result', { taskId }, true);
    await vi.waitFor(() => expect(runs.steps.get('prepare')).toBe(1));
    runs.gate.resolve();
    await vi.waitFor(() => expect(client.onStream).toHaveLength(1));
    client.onStream[0]?.answer(ACCEPT(true));
    expect(await waiting).toMatchObject({ content: [{ text: 'true undefined' }] });
    expect(client.session.held).toEqual([]);
  });

  it('a tasks/result in the session that holds the parked question does not ask it again', async () => {
    const { client, taskId } = await parkedTask();
    const waiting = client.ok('tasks/result', { taskId });
    expect(await client.ok('tasks/get', { taskId })).toMatchObject({ status: 'input_required' });
    expect(client.session.held).toHaveLength(1);
    client.session.held[0]?.answer(ACCEPT(false));
    expect(await waiting).toMatchObject({ content: [{ text: 'false undefined' }] });
    expect(client.session.held).toHaveLength(1);
  });

  it('a refusal before the park reaches the tool as an error, and withdraws the question', async () => {
    const { store, client, taskId } = await askedWithoutPark();
    client.session.held[0]?.refuse();
    // An isError result fails the task on this wire.
    await vi.waitFor(async () => expect((await client.ok('tasks/get', { taskId })).status).toBe('failed'));
    const failed = await store.get(`\u0000session:${client.session.id}`, taskId);
    expect(JSON.stringify(failed?.result)).toContain('The client did not answer elicitation/create');
    expect(failed?.inputRequests).toEqual({});
  });
});
