import { ProtocolError } from '@mcp-tasks/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  InMemoryTaskJournal,
  InputHandlerError,
  type InputHandlers,
  McpClient,
  type McpClientOptions,
  TaskCancelledError,
  TaskExpiredError,
  TaskFailedError,
  TaskNotFoundError,
  TaskStuckError,
} from '../src/index.js';
import { ack, created, elicit, FakeTransport, polled, type Responder, textResult } from './fakeTransport.js';

const clientInfo = { name: 'test-client', version: '1.0.0' };

function setup(responder: Responder, options: Partial<McpClientOptions> = {}) {
  const transport = new FakeTransport(responder);
  return { transport, client: new McpClient({ transport, clientInfo, ...options }) };
}

/** Runs `promise` to settlement under fake timers. */
async function settle<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  await vi.runAllTimersAsync();
  return promise;
}

/** A tools/call that creates a task whose tasks/get answers come from `states` in order (the last repeats). */
function scripted(states: Record<string, unknown>[], seed = created('working', { pollIntervalMs: 500 })): Responder {
  let poll = 0;
  return (req) => {
    if (req.method === 'tools/call') return seed;
    if (req.method === 'tasks/get') return states[Math.min(poll++, states.length - 1)]!;
    return ack;
  };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('callTool with a task (C3)', () => {
  it('returns a direct result when the server chose none', async () => {
    const { transport, client } = setup(() => textResult('direct'));
    await expect(settle(client.callTool('t', { a: 1 }))).resolves.toMatchObject({ content: [{ text: 'direct' }] });
    expect(transport.calls('tools/call')[0]!.params).toMatchObject({ name: 't', arguments: { a: 1 } });
  });

  it('polls tasks/get with the task id until completed, and returns the result (C6, C7)', async () => {
    const { transport, client } = setup(
      scripted([polled('working'), polled('working'), polled('completed', { result: textResult('done') })]),
    );
    await expect(settle(client.callTool('t'))).resolves.toMatchObject({ content: [{ text: 'done' }] });
    expect(transport.calls('tasks/get').map((m) => m.params?.taskId)).toEqual(['t-1', 't-1', 't-1']);
  });

  it('follows the latest pollIntervalMs, clamped to floor and cap, default when absent (C6)', async () => {
    const { transport, client } = setup(
      scripted([
        polled('working', { pollIntervalMs: 2000 }),
        polled('working', { pollIntervalMs: 0 }),
        polled('working', { pollIntervalMs: 999_999 }),
        polled('working'),
        polled('completed', { result: textResult('ok') }),
      ]),
      { tasks: { minIntervalMs: 50, maxIntervalMs: 10_000, defaultIntervalMs: 700 } },
    );
    await settle(client.callTool('t'));
    const times = transport.times('tasks/get');
    const gaps = times.map((t, i) => t - (i === 0 ? 0 : (times[i - 1] ?? 0)));
    expect(gaps).toEqual([500, 2000, 50, 10_000, 700]);
  });

  it('returns a completed result with isError: true as a result, not an error (C19)', async () => {
    const { client } = setup(scripted([polled('completed', { result: textResult('tool broke', true) })]));
    await expect(settle(client.callTool('t'))).resolves.toMatchObject({ isError: true });
  });

  it('accepts a completed result without resultType (C5)', async () => {
    const { client } = setup(scripted([polled('completed', { result: { content: [] } })]));
    await expect(settle(client.callTool('t'))).resolves.toMatchObject({ content: [] });
  });

  it('rejects failed with TaskFailedError carrying the JSON-RPC error (C19)', async () => {
    const failed = polled('failed', {
      statusMessage: 'rate limited',
      error: { code: -32603, message: 'boom', data: 1 },
    });
    const { client } = setup((req) => {
      if (req.method === 'tools/call') return created();
      // Sent raw: the fake reads a top-level `error` key as a JSON-RPC error response.
      return { raw: { jsonrpc: '2.0', id: req.id, result: failed } };
    });
    const error = await settle(client.callTool('t')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect((error as TaskFailedError).error).toBeInstanceOf(ProtocolError);
    expect((error as TaskFailedError).error).toMatchObject({ code: -32603, message: 'boom', data: 1 });
    expect((error as TaskFailedError).statusMessage).toBe('rate limited');
  });

  it('rejects cancelled with TaskCancelledError', async () => {
    const { client } = setup(scripted([polled('cancelled', { statusMessage: 'operator' })]));
    await expect(settle(client.callTool('t'))).rejects.toBeInstanceOf(TaskCancelledError);
  });

  it('maps -32602 on tasks/get to TaskNotFoundError (C20)', async () => {
    const { client } = setup((req) =>
      req.method === 'tools/call' ? created() : { error: { code: -32602, message: 'Task has expired' } },
    );
    const error = await settle(client.callTool('t')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskNotFoundError);
    expect((error as Error).cause).toMatchObject({ code: -32602 });
  });

  it('gives up with TaskExpiredError once createdAt + ttlMs passed, and cancels (C9)', async () => {
    const { transport, client } = setup(
      scripted([polled('working', { ttlMs: 1200 })], created('working', { ttlMs: 1200 })),
    );
    await expect(settle(client.callTool('t'))).rejects.toBeInstanceOf(TaskExpiredError);
    expect(transport.times('tasks/get')).toEqual([1000, 2000]);
    expect(transport.calls('tasks/cancel')).toHaveLength(1);
  });

  it.each(['completed', 'failed', 'cancelled', 'input_required'])(
    'handles a %s seed by fetching the payload at once (decision 5, C23)',
    async (status) => {
      const { transport, client } = setup(
        scripted([polled('completed', { result: textResult('from get') })], created(status)),
      );
      await expect(settle(client.callTool('t'))).resolves.toMatchObject({ content: [{ text: 'from get' }] });
      expect(transport.times('tasks/get')).toEqual([0]);
    },
  );

  it('reports each state that changed to onStatus, the seed first; a poll that finds nothing new is not reported', async () => {
    const { client } = setup(scripted([polled('working'), polled('completed', { result: textResult('x') })]));
    const seen: string[] = [];
    await settle(client.callTool('t', {}, { onStatus: (t) => seen.push(t.status) }));
    expect(seen).toEqual(['working', 'completed']);
  });

  it('C24, L-C23: never sends the legacy task param nor calls tasks/result or tasks/list', async () => {
    const { transport, client } = setup(scripted([polled('completed', { result: textResult('x') })]));
    await settle(client.callTool('t'));
    expect(transport.calls('tools/call')[0]!.params).not.toHaveProperty('task');
    expect(transport.requests.map((r) => r.message.method)).not.toContain('tasks/result');
    expect(transport.requests.map((r) => r.message.method)).not.toContain('tasks/list');
  });
});

describe('input_required inside a task (C10-C14)', () => {
  const accepting: InputHandlers = {
    elicitation: vi.fn(async () => ({ action: 'accept' as const, content: { ok: true } })),
  };

  it('answers all outstanding keys of a poll in one tasks/update, each key once across polls (C11, C13, C14)', async () => {
    const elicitation = vi.fn(async (params: { message: string }) => ({
      action: 'accept' as const,
      content: { ok: params.message === 'a' },
    }));
    const { transport, client } = setup(
      scripted([
        polled('input_required', { inputRequests: { a: elicit('a'), b: elicit('b') } }),
        polled('input_required', { inputRequests: { a: elicit('a'), b: elicit('b') } }),
        polled('input_required', { inputRequests: { c: elicit('c') } }),
        polled('working'),
        polled('completed', { result: textResult('ok') }),
      ]),
      { handlers: { elicitation } },
    );
    await settle(client.callTool('t'));
    expect(elicitation).toHaveBeenCalledTimes(3);
    const updates = transport.calls('tasks/update').map((m) => m.params);
    expect(updates).toHaveLength(2);
    expect(updates[0]).toMatchObject({
      taskId: 't-1',
      inputResponses: {
        a: { action: 'accept', content: { ok: true } },
        b: { action: 'accept', content: { ok: false } },
      },
    });
    expect(Object.keys(updates[1]!.inputResponses as object)).toEqual(['c']);
  });

  it('C15: takes no task state from the tasks/update ack and keeps polling to the real outcome', async () => {
    let poll = 0;
    const states = [
      polled('input_required', { inputRequests: { a: elicit('a') } }),
      polled('working'),
      polled('completed', { result: textResult('from tasks/get') }),
    ];
    const { transport, client } = setup(
      (req) => {
        if (req.method === 'tools/call') return created('working', { pollIntervalMs: 500 });
        if (req.method === 'tasks/get') return states[Math.min(poll++, states.length - 1)]!;
        // An ack that (wrongly) looks like task state: the client must not take it as the outcome.
        return { ...ack, status: 'completed', result: textResult('from the ack') };
      },
      { handlers: { elicitation: async () => ({ action: 'accept', content: {} }) } },
    );
    const result = await settle(client.callTool('t'));
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'from tasks/get' }] });
    expect(transport.calls('tasks/update')).toHaveLength(1);
    expect(transport.calls('tasks/get')).toHaveLength(3);
  });

  it('sends input responses without resultType (C14)', async () => {
    const { transport, client } = setup(
      scripted([
        polled('input_required', { inputRequests: { a: elicit('a') } }),
        polled('completed', { result: textResult('ok') }),
      ]),
      { handlers: { elicitation: async () => ({ action: 'accept', content: {}, resultType: 'complete' }) as never } },
    );
    await settle(client.callTool('t'));
    expect(transport.calls('tasks/update')[0]!.params?.inputResponses).toEqual({
      a: { action: 'accept', content: {} },
    });
  });

  it('answers a throwing elicitation handler with cancel instead of leaving the task waiting', async () => {
    const { transport, client } = setup(
      scripted([
        polled('input_required', { inputRequests: { a: elicit('a') } }),
        polled('completed', { result: textResult('ok') }),
      ]),
      { handlers: { elicitation: () => Promise.reject(new Error('ui closed')) } },
    );
    await settle(client.callTool('t'));
    expect(transport.calls('tasks/update')[0]!.params?.inputResponses).toEqual({ a: { action: 'cancel' } });
  });

  it('fails a throwing sampling handler with InputHandlerError and cancels the task', async () => {
    const sampling = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } };
    const { transport, client } = setup(scripted([polled('input_required', { inputRequests: { s: sampling } })]), {
      handlers: {
        sampling: () => {
          throw new Error('no model');
        },
      },
    });
    await expect(settle(client.callTool('t'))).rejects.toBeInstanceOf(InputHandlerError);
    expect(transport.calls('tasks/cancel')).toHaveLength(1);
    expect(transport.calls('tasks/update')).toHaveLength(0);
  });

  it('fails an input request with no registered handler with InputHandlerError', async () => {
    const { client } = setup(scripted([polled('input_required', { inputRequests: { r: { method: 'roots/list' } } })]));
    await expect(settle(client.callTool('t'))).rejects.toThrow(/no handler/);
  });

  it('stops after N idle input_required polls, cancels, and throws TaskStuckError', async () => {
    const { transport, client } = setup(scripted([polled('input_required', { inputRequests: { a: elicit('a') } })]), {
      handlers: accepting,
      tasks: { stuckAfterPolls: 5 },
    });
    const error = await settle(client.callTool('t')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskStuckError);
    expect(transport.calls('tasks/get')).toHaveLength(6);
    expect(transport.calls('tasks/update')).toHaveLength(1);
    expect(transport.calls('tasks/cancel')).toHaveLength(1);
  });

  it('waits for the cancel ack before it rejects, so a caller that exits at once does not lose it', async () => {
    let acked = false;
    const stuck = scripted([polled('input_required', { inputRequests: { a: elicit('a') } })]);
    const { client } = setup(
      (req, context) =>
        req.method === 'tasks/cancel'
          ? new Promise((resolve) =>
              setTimeout(() => {
                acked = true;
                resolve(ack);
              }, 500),
            )
          : stuck(req, context),
      { handlers: accepting, tasks: { stuckAfterPolls: 2 } },
    );
    const error = await settle(client.callTool('t')).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TaskStuckError', cancelled: true });
    expect(acked).toBe(true);
  });

  it('keeps the journal entry and says so when the cancel of a stuck task is refused', async () => {
    const journal = new InMemoryTaskJournal();
    const stuck = scripted([polled('input_required', { inputRequests: { a: elicit('a') } })]);
    const { client } = setup(
      (req, context) => {
        if (req.method === 'tasks/cancel') throw new ProtocolError(-32603, 'store unavailable');
        return stuck(req, context);
      },
      { handlers: accepting, tasks: { stuckAfterPolls: 2, journal } },
    );
    const error = await settle(client.callTool('t')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskStuckError);
    expect(error).toMatchObject({ cancelled: false, message: expect.stringMatching(/could not cancel it/) });
    expect(journal.list().map((entry) => entry.taskId)).toEqual(['t-1']);
  });
});
