/** The session-facing routes of the 2025-11-25 tasks: version gating, shared fallback, questions via the session. */
import {
  LegacyCreateTaskResultSchema,
  type OutboundRequest,
  type PeerSession,
  RELATED_TASK_META_KEY,
  type TransportNotification,
  type TransportResponse,
} from '@mcp-tasks/protocol';
import { describe, expect, it, vi } from 'vitest';
import { legacyTaskEraRoutes } from '../../src/era-2025/legacyTaskEra.js';
import type { JsonObject } from '../../src/jsonRpc.js';
import { fakeContext } from '../harness.js';
import { ENVELOPE, legacyFixture } from './legacyTaskSetup.js';

/** A session whose client answers every request with `reply(request)`. */
function fakeSession(reply: (request: OutboundRequest) => TransportResponse) {
  const closer = new AbortController();
  const notifications: TransportNotification[] = [];
  const requests: OutboundRequest[] = [];
  const session: PeerSession = {
    id: 'session-1',
    notify: (notification) => notifications.push(notification),
    request: async (message) => {
      requests.push(message);
      return reply(message);
    },
    closed: closer.signal,
  };
  return { session, notifications, requests, close: () => closer.abort() };
}

function serve(version: string, reply: (request: OutboundRequest) => TransportResponse) {
  const f = legacyFixture();
  const routes = legacyTaskEraRoutes(f.deps, f.methods);
  const peer = fakeSession(reply);
  const shared = vi.fn(async (): Promise<JsonObject> => ({ content: [], served: 'shared' }));
  const send = (method: string, params: JsonObject, context = fakeContext().context) => {
    const route = routes.get(method);
    if (route === undefined) throw new Error(`no route ${method}`);
    return route({
      params,
      owner: 'session-1',
      envelope: { ...ENVELOPE, protocolVersion: version },
      context,
      state: { protocolVersion: version, session: peer.session },
      shared,
    });
  };
  return { f, peer, shared, send };
}

const accept = (request: OutboundRequest): TransportResponse => ({
  jsonrpc: '2.0',
  id: 1,
  result: { action: 'accept', content: { ok: true }, seen: request.method },
});

describe('legacyTaskEraRoutes', () => {
  it('L-T5/L-T11: a task-augmented tools/call in a 2025-11-25 session asks through the session', async () => {
    const { peer, send } = serve('2025-11-25', accept);
    const { task } = LegacyCreateTaskResultSchema.parse(await send('tools/call', { name: 'confirm', task: {} }));
    const result = await send('tasks/result', { taskId: task.taskId });
    expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining('"action":"accept"') }]);
    expect(peer.requests).toEqual([
      expect.objectContaining({
        method: 'elicitation/create',
        params: expect.objectContaining({ _meta: { [RELATED_TASK_META_KEY]: { taskId: task.taskId } } }),
      }),
    ]);
    await vi.waitFor(() => expect(peer.notifications.map((n) => n.method)).toContain('notifications/tasks/status'));
  });

  it('L-T19: status notifications stop when the session closes', async () => {
    const { peer, send, f } = serve('2025-11-25', accept);
    const { task } = LegacyCreateTaskResultSchema.parse(await send('tools/call', { name: 'slow', task: {} }));
    peer.close();
    f.gate.resolve();
    await send('tasks/result', { taskId: task.taskId });
    expect(peer.notifications).toEqual([]);
    await vi.waitFor(() => expect(f.runtime.ops.stats().listenedTasks).toBe(0));
  });

  it('L-T3/L-T25: without params.task, or in an older session, tools/call is served the ordinary way', async () => {
    const current = serve('2025-11-25', accept);
    expect(await current.send('tools/call', { name: 'slow' })).toEqual({ content: [], served: 'shared' });
    const older = serve('2025-06-18', accept);
    expect(await older.send('tools/call', { name: 'slow', task: {} })).toEqual({ content: [], served: 'shared' });
    expect(older.shared).toHaveBeenCalledTimes(1);
  });

  it('L-S4, L-T25: the task methods are -32601 in sessions older than 2025-11-25', async () => {
    const { send, f } = serve('2025-06-18', accept);
    for (const method of ['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel']) {
      expect(await f.rejection(send(method, { taskId: 'x' }))).toMatchObject({ code: -32601 });
    }
  });

  it('L-T11: a JSON-RPC error from the client reaches the tool as a plain error (the task fails by isError)', async () => {
    const { send } = serve('2025-11-25', () => ({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'Method not found' },
    }));
    const { task } = LegacyCreateTaskResultSchema.parse(await send('tools/call', { name: 'confirm', task: {} }));
    expect(await send('tasks/result', { taskId: task.taskId })).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('error -32601: Method not found') }],
    });
    expect((await send('tasks/get', { taskId: task.taskId })).status).toBe('failed');
  });

  it('L-T12: a question goes on the stream of a waiting tasks/result; back to the session if that stream ends', async () => {
    const { peer, send, f } = serve('2025-11-25', accept);
    const { task } = LegacyCreateTaskResultSchema.parse(await send('tools/call', { name: 'asks_later', task: {} }));
    const onStream: OutboundRequest[] = [];
    const controller = new AbortController();
    const streamContext = {
      ...fakeContext().context,
      signal: controller.signal,
      request: (message: OutboundRequest, options?: { signal?: AbortSignal }) =>
        new Promise<TransportResponse>((_resolve, reject) => {
          onStream.push(message);
          options?.signal?.addEventListener('abort', () => reject(new Error('stream closed')));
          controller.signal.addEventListener('abort', () => reject(new Error('stream closed')));
        }),
    };
    const waiting = send('tasks/result', { taskId: task.taskId }, streamContext).catch((error: unknown) => error);
    await vi.waitFor(() => expect(f.streams.size).toBe(1));
    f.gate.resolve();
    await vi.waitFor(() => expect(onStream).toHaveLength(1));
    expect(onStream[0]).toMatchObject({
      method: 'elicitation/create',
      params: { _meta: { [RELATED_TASK_META_KEY]: { taskId: task.taskId } } },
    });
    expect(peer.requests).toEqual([]);
    controller.abort(new Error('client closed the stream'));
    expect(await waiting).toEqual(new Error('client closed the stream'));
    expect(await send('tasks/result', { taskId: task.taskId })).toMatchObject({
      content: [{ type: 'text', text: 'later: accept' }],
    });
    expect(peer.requests.map((request) => request.method)).toEqual(['elicitation/create']);
    expect(f.streams.size).toBe(0);
  });
});
