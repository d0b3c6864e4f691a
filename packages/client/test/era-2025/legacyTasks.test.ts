import { RELATED_TASK_META_KEY, type TransportRequest } from '@mcp-tasks/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type InputHandlers,
  McpClient,
  TaskCancelledError,
  TaskFailedError,
  TaskNotFoundError,
  type TaskStatusListener,
} from '../../src/index.js';
import { type FakeTransport, textResult, until } from '../fakeTransport.js';
import { legacyTransport, methods } from './legacyServer.js';

const clientInfo = { name: 'test-client', version: '1.0.0' };
const TASKS = { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };

const legacyTask = (status: string, extra: Record<string, unknown> = {}) => ({
  taskId: 'L-1',
  status,
  createdAt: new Date(0).toISOString(),
  lastUpdatedAt: new Date(0).toISOString(),
  ttl: 60_000,
  pollInterval: 250,
  ...extra,
});

const tool = (name: string, taskSupport?: string) => ({
  name,
  inputSchema: { type: 'object' },
  ...(taskSupport === undefined ? {} : { execution: { taskSupport } }),
});
const TOOLS = { tools: [tool('slow', 'required'), tool('maybe', 'optional'), tool('plain')] };

type Handle = (request: TransportRequest) => unknown;

function setup(
  handle: Handle,
  capabilities: Record<string, unknown> = TASKS,
  handlers: InputHandlers = {},
  version?: string,
): { transport: FakeTransport; client: McpClient } {
  const transport = legacyTransport({
    capabilities,
    ...(version === undefined ? {} : { version }),
    handle: (req) => (req.method === 'tools/list' ? TOOLS : (handle(req) as Record<string, unknown>)),
  });
  return { transport, client: new McpClient({ transport, clientInfo, handlers }) };
}

/** tools/call creates L-1; tasks/get answers `states` in order (the last repeats); tasks/result answers `result`. */
function scripted(states: string[], result: unknown = textResult('done')): Handle {
  let poll = 0;
  return (req) => {
    if (req.method === 'tools/call') return req.params?.task ? { task: legacyTask('working') } : textResult('direct');
    if (req.method === 'tasks/get') return legacyTask(states[Math.min(poll++, states.length - 1)]!);
    if (req.method === 'tasks/result') return result;
    if (req.method === 'tasks/cancel') return legacyTask('cancelled');
    return {};
  };
}

async function settle<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  await vi.runAllTimersAsync();
  return promise;
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('task-augmented tools/call on 2025-11-25 (L-C18..L-C21)', () => {
  it('L-C18, L-C19, L-C21: a task-required tool is augmented, polled per pollInterval (no status notification needed), and its result fetched', async () => {
    const statuses: string[] = [];
    const onStatus: TaskStatusListener = (t) => statuses.push(`${t.status}:${t.ttlMs}`);
    const { transport, client } = setup(scripted(['working', 'completed']));
    await expect(settle(client.callTool('slow', { n: 1 }, { onStatus }))).resolves.toMatchObject({
      content: [{ text: 'done' }],
    });
    expect(transport.calls('tools/call')[0]!.params).toEqual({ name: 'slow', arguments: { n: 1 }, task: {} });
    expect(methods(transport).slice(2)).toEqual(['tools/list', 'tools/call', 'tasks/get', 'tasks/get', 'tasks/result']);
    expect(transport.times('tasks/get')).toEqual([250, 500]);
    // L-C21: no related-task _meta on tasks/get or tasks/result.
    expect(transport.calls('tasks/result')[0]!.params).toEqual({ taskId: 'L-1' });
    expect(statuses).toEqual(['working:60000', 'working:60000', 'completed:60000']);
  });

  it('L-C18: an optional tool gets a task only when the caller asks, with the requested ttl', async () => {
    const { transport, client } = setup(scripted(['completed']));
    await expect(settle(client.callTool('maybe'))).resolves.toMatchObject({ content: [{ text: 'direct' }] });
    await settle(client.callTool('maybe', {}, { task: { ttlMs: 5000 } }));
    expect(transport.calls('tools/call').map((c) => c.params?.task)).toEqual([undefined, { ttl: 5000 }]);
    // The tool list is fetched once and remembered.
    expect(transport.calls('tools/list')).toHaveLength(1);
  });

  it('L-C18, L-T4: a tool without taskSupport is never augmented, even when the caller asks', async () => {
    const { transport, client } = setup(scripted(['completed']));
    await settle(client.callTool('plain', {}, { task: true }));
    expect(transport.calls('tools/call')[0]!.params).not.toHaveProperty('task');
  });

  it('L-T2, L-T4: without capabilities.tasks.requests.tools.call the client neither augments nor lists tools', async () => {
    const { transport, client } = setup(scripted(['completed']), { tools: {} });
    await settle(client.callTool('slow', {}, { task: true }));
    expect(methods(transport).slice(2)).toEqual(['tools/call']);
    expect(transport.calls('tools/call')[0]!.params).not.toHaveProperty('task');
  });

  it('L-T25: a 2025-06-18 session never augments, whatever the server declares', async () => {
    const { transport, client } = setup(scripted(['completed']), TASKS, {}, '2025-06-18');
    await settle(client.callTool('slow'));
    expect(transport.calls('tools/call')[0]!.params).not.toHaveProperty('task');
  });

  it('L-T3: a server that answers an augmented call directly gives the direct result', async () => {
    const { client } = setup((req) => (req.method === 'tools/call' ? textResult('no task after all') : {}));
    await expect(settle(client.callTool('slow'))).resolves.toMatchObject({ content: [{ text: 'no task after all' }] });
  });

  it('L-C19: on input_required tasks/result is called at once; the related request is answered meanwhile', async () => {
    let answered: unknown;
    let transport!: FakeTransport;
    const handle: Handle = (req) => {
      if (req.method === 'tools/call') return { task: legacyTask('working') };
      if (req.method === 'tasks/get') return legacyTask('input_required');
      if (req.method === 'tasks/result') {
        return transport
          .serverRequest('elicitation/create', {
            message: 'Proceed?',
            requestedSchema: { type: 'object', properties: {} },
            _meta: { [RELATED_TASK_META_KEY]: { taskId: 'L-1' } },
          })
          .then((response) => {
            answered = response;
            return { ...textResult('after input'), _meta: { [RELATED_TASK_META_KEY]: { taskId: 'L-1' } } };
          });
      }
      return {};
    };
    const contexts: unknown[] = [];
    const made = setup(handle, TASKS, {
      elicitation: (_p, context) => {
        contexts.push(context);
        return { action: 'accept', content: {} };
      },
    });
    transport = made.transport;
    const client = made.client;
    await expect(settle(client.callTool('slow', { x: 1 }))).resolves.toMatchObject({
      content: [{ text: 'after input' }],
    });
    expect(transport.calls('tasks/get')).toHaveLength(1);
    expect(answered).toMatchObject({
      result: { action: 'accept', _meta: { [RELATED_TASK_META_KEY]: { taskId: 'L-1' } } },
    });
    expect(contexts[0]).toMatchObject({ taskId: 'L-1', toolName: 'slow', method: 'tools/call' });
  });

  it('L-C19, L-T10: a failed task whose result is a tool error resolves with that result', async () => {
    const { client } = setup(scripted(['failed'], textResult('boom', true)));
    await expect(settle(client.callTool('slow'))).resolves.toMatchObject({ isError: true });
  });

  it('L-C19: a JSON-RPC error from tasks/result rejects with TaskFailedError', async () => {
    const { client } = setup(scripted(['failed'], { error: { code: -32603, message: 'exploded' } }));
    await expect(settle(client.callTool('slow'))).rejects.toBeInstanceOf(TaskFailedError);
  });

  it('a cancelled task rejects with TaskCancelledError; an unknown one (-32602) with TaskNotFoundError', async () => {
    const cancelled = setup(scripted(['cancelled']));
    await expect(settle(cancelled.client.callTool('slow'))).rejects.toBeInstanceOf(TaskCancelledError);
    expect(cancelled.transport.calls('tasks/result')).toHaveLength(0);
    const gone = setup((req) =>
      req.method === 'tasks/get' ? { error: { code: -32602, message: 'unknown task' } } : scripted(['working'])(req),
    );
    await expect(settle(gone.client.callTool('slow'))).rejects.toBeInstanceOf(TaskNotFoundError);
  });

  it('L-C20, L-T18: abort sends tasks/cancel, never notifications/cancelled for the task', async () => {
    const { transport, client } = setup(scripted(['working']));
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal });
    call.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(600);
    await until(() => transport.calls('tasks/get').length >= 2, 'polling');
    controller.abort(new Error('user stop'));
    await expect(settle(call)).rejects.toThrow('user stop');
    expect(transport.calls('tasks/cancel').map((c) => c.params)).toEqual([{ taskId: 'L-1' }]);
    expect(transport.sentNotifications.map((n) => n.method)).toEqual(['notifications/initialized']);
  });

  it('L-C20: without tasks.cancel declared an abort sends no tasks/cancel', async () => {
    const { transport, client } = setup(scripted(['working']), { tasks: { requests: { tools: { call: {} } } } });
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal });
    call.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(300);
    controller.abort(new Error('stop'));
    await expect(settle(call)).rejects.toThrow('stop');
    expect(transport.calls('tasks/cancel')).toHaveLength(0);
  });

  it('L-S29, L-C16: a task keeps its progress token until it ends; progress after the call is not routed', async () => {
    let transport!: FakeTransport;
    const progress = (token: unknown, value: number) => ({
      jsonrpc: '2.0' as const,
      method: 'notifications/progress',
      params: { progressToken: token, progress: value },
    });
    const handle: Handle = (req) => {
      if (req.method === 'tasks/get') {
        // Outside any request: through the peer handler.
        transport.peer!.onNotification(progress(token, 2));
        return legacyTask('completed');
      }
      return scripted(['completed'])(req);
    };
    let token: unknown;
    const made = setup((req) => {
      if (req.method === 'tools/call')
        token = (req.params?._meta as Record<string, unknown> | undefined)?.progressToken;
      return handle(req);
    });
    transport = made.transport;
    const seen: number[] = [];
    await settle(made.client.callTool('slow', {}, { onProgress: (p) => seen.push(p.progress) }));
    transport.peer!.onNotification(progress(token, 3));
    expect(token).toBe('progress-1');
    expect(seen).toEqual([2]);
  });

  it('startTool in a 2025 session runs the call to its end (its task cannot outlive the session)', async () => {
    const { client } = setup(scripted(['completed']));
    await expect(settle(client.startTool('slow'))).resolves.toMatchObject({
      kind: 'complete',
      result: { content: [{ text: 'done' }] },
    });
  });
});
