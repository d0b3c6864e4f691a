/** The connection as a 2025-era session: `context.session`, `context.request` and response routing in ServerSession. */
import type { MessageHandler, RequestContext, TransportResponse } from '@mcp-tasks/protocol';
import { TransportError } from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ServerSession } from '../../src/serverSession.js';
import type { ServerSessionOptions } from '../../src/serverSessionOptions.js';

type Extra = Partial<Omit<ServerSessionOptions, 'handler' | 'write'>>;

function setup(handler: MessageHandler, extra: Extra = {}) {
  const out: Array<Record<string, unknown>> = [];
  const errors: Error[] = [];
  const session = new ServerSession({
    handler,
    write: (text) => out.push(JSON.parse(text)),
    onError: (e) => errors.push(e),
    ...extra,
  });
  return { session, out, errors };
}

/** Records every context and parks each request until the test resolves it. */
function parking() {
  const contexts: RequestContext[] = [];
  const finish = new Map<unknown, (response: TransportResponse | undefined) => void>();
  const handler: MessageHandler = (message, context) => {
    contexts.push(context);
    const id = (message as { id?: unknown }).id;
    if (id === undefined) return Promise.resolve(undefined);
    return new Promise((resolve) => finish.set(id, resolve));
  };
  return { handler, contexts, finish };
}

/** A runtime that, on any request, asks the client for its roots and answers with what the client replied. */
const rootsRuntime: MessageHandler = async (message, context) => {
  const id = (message as { id: string | number }).id;
  try {
    const reply = await context.request?.({ method: 'roots/list' });
    return { jsonrpc: '2.0', id, result: { reply } };
  } catch (error) {
    return { jsonrpc: '2.0', id, result: { failed: (error as TransportError).code } };
  }
};

const req = (id: string | number, method = 'tools/call') => ({ jsonrpc: '2.0', id, method });

afterEach(() => {
  vi.useRealTimers();
});

describe('ServerSession as a 2025-era session (stdio and WebSocket connections)', () => {
  it('L-S22: context.request writes a server request and resolves with the client response routed by id', async () => {
    const { session, out } = setup(rootsRuntime);
    session.receive(req(1));
    await vi.waitFor(() => expect(out).toHaveLength(1));
    expect(out[0]).toEqual({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' });
    session.receive({ jsonrpc: '2.0', id: 'srv-1', result: { roots: [{ uri: 'file:///w' }] } });
    await session.idle();
    expect(out[1]).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { reply: { jsonrpc: '2.0', id: 'srv-1', result: { roots: [{ uri: 'file:///w' }] } } },
    });
  });

  it('L-S22: a JSON-RPC error response from the client resolves the request too', async () => {
    const { session, out } = setup(rootsRuntime);
    session.receive(req(1));
    await vi.waitFor(() => expect(out).toHaveLength(1));
    session.receive({ jsonrpc: '2.0', id: 'srv-1', error: { code: -32601, message: 'Method not found' } });
    await session.idle();
    expect(out[1]).toMatchObject({ id: 1, result: { reply: { error: { code: -32601 } } } });
  });

  it('L-S7: ids of server requests are strings, unique on the connection, never reused', async () => {
    const { handler, contexts } = parking();
    const { session, out } = setup(handler);
    session.receive(req(1));
    session.receive(req(2));
    await vi.waitFor(() => expect(contexts).toHaveLength(2));
    const asked = [
      contexts[0]?.request?.({ method: 'ping' }),
      contexts[1]?.request?.({ method: 'ping' }),
      contexts[0]?.session?.request({ method: 'roots/list', params: { x: 1 } }),
    ];
    const ids = out.map((message) => message.id);
    expect(ids).toEqual(['srv-1', 'srv-2', 'srv-3']);
    expect(out[2]).toEqual({ jsonrpc: '2.0', id: 'srv-3', method: 'roots/list', params: { x: 1 } });
    session.receive({ jsonrpc: '2.0', id: 'srv-1', result: {} });
    await asked[0];
    asked.push(contexts[0]?.request?.({ method: 'ping' }));
    expect(out.at(-1)?.id).toBe('srv-4');
    session.close();
    await Promise.allSettled(asked);
  });

  it('gives every message on a connection the same session, with a random id, and another connection another', async () => {
    const first = parking();
    const second = parking();
    const a = setup(first.handler);
    const b = setup(second.handler);
    a.session.receive(req(1));
    a.session.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
    b.session.receive(req(1));
    await vi.waitFor(() => expect(first.contexts).toHaveLength(2));
    const [one, two] = first.contexts;
    expect(one?.session).toBeDefined();
    expect(one?.session).toBe(two?.session);
    expect(one?.session).toBe(a.session.peer);
    expect(second.contexts[0]?.session?.id).not.toBe(one?.session?.id);
    expect(one?.session?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(one?.session?.closed.aborted).toBe(false);
    a.session.close();
    b.session.close();
    expect(one?.session?.closed.aborted).toBe(true);
    expect(one?.session?.closed.reason).toMatchObject({ name: 'TransportError', code: 'closed' });
  });

  it('L-S22: session.notify writes a notification on the connection, and nothing once it closed', async () => {
    const { handler, contexts } = parking();
    const { session, out } = setup(handler);
    session.receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await vi.waitFor(() => expect(contexts).toHaveLength(1));
    const peer = contexts[0]?.session;
    peer?.notify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(out).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
    session.close();
    peer?.notify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(out).toHaveLength(1);
  });

  it('rejects pending server requests with TransportError(closed) when the connection closes, and later ones', async () => {
    const { handler, contexts } = parking();
    const { session, out } = setup(handler);
    session.receive(req(1));
    await vi.waitFor(() => expect(contexts).toHaveLength(1));
    const viaSession = contexts[0]?.session?.request({ method: 'roots/list' });
    const viaContext = contexts[0]?.request?.({ method: 'sampling/createMessage' });
    expect(session.peer.pendingRequests).toBe(2);
    session.close();
    for (const pending of [viaSession, viaContext]) {
      const error = await pending?.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ code: 'closed' });
    }
    await expect(contexts[0]?.session?.request({ method: 'ping' })).rejects.toMatchObject({ code: 'closed' });
    // Nothing is written after the close, not even a cancellation.
    expect(out.map((m) => m.method)).toEqual(['roots/list', 'sampling/createMessage']);
  });

  it('L-S22: a response naming no pending request (unknown, null or missing id) is dropped and reported', async () => {
    const { session, out, errors } = setup(rootsRuntime);
    session.receive({ jsonrpc: '2.0', id: 'srv-99', result: {} });
    session.receive({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    session.receive({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });
    expect(errors.map((e) => e.message)).toEqual([
      'Dropped a response naming no pending request (id "srv-99")',
      'Dropped a response naming no pending request (id null)',
      'Dropped a response naming no pending request (id missing)',
    ]);
    expect(out).toEqual([]);
    // The connection still works.
    session.receive(req(7));
    session.receive({ jsonrpc: '2.0', id: 'srv-1', result: { roots: [] } });
    await session.idle();
    expect(out.at(-1)).toMatchObject({ id: 7, result: { reply: { result: { roots: [] } } } });
  });

  it('L-S30: cancelling the inbound request withdraws its server request (notifications/cancelled) and rejects it', async () => {
    const { session, out } = setup(rootsRuntime);
    session.receive(req('call-1'));
    await vi.waitFor(() => expect(out).toHaveLength(1));
    session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'call-1' } });
    await session.idle();
    expect(out[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'srv-1', reason: 'Request srv-1 was cancelled' },
    });
    // The cancelled inbound request is not answered; its late server-request response is just dropped.
    session.receive({ jsonrpc: '2.0', id: 'srv-1', result: { roots: [] } });
    await session.idle();
    expect(out).toHaveLength(2);
  });

  it('L-S30: a client notifications/cancelled naming a server request is ignored; the request stays pending', async () => {
    const { session, out, errors } = setup(rootsRuntime);
    session.receive(req(1));
    await vi.waitFor(() => expect(out).toHaveLength(1));
    session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'srv-1' } });
    session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: { bad: true } } });
    session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled' });
    expect(session.peer.pendingRequests).toBe(1);
    session.receive({ jsonrpc: '2.0', id: 'srv-1', result: { roots: [] } });
    await session.idle();
    expect(out[1]).toMatchObject({ id: 1, result: { reply: { result: { roots: [] } } } });
    expect(errors).toEqual([]);
  });

  it('L-S30: an inbound notifications/cancelled still aborts the named request', async () => {
    const { handler, contexts } = parking();
    const { session } = setup(handler);
    session.receive(req('a'));
    await vi.waitFor(() => expect(contexts).toHaveLength(1));
    session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'a' } });
    expect(contexts[0]?.signal.aborted).toBe(true);
  });

  it('aborting options.signal rejects a session request with TransportError(closed) and tells the client', async () => {
    const { session, out } = setup(rootsRuntime);
    const controller = new AbortController();
    const pending = session.peer.request({ method: 'elicitation/create', params: {} }, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'TransportError', code: 'closed' });
    expect(out[1]).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 'srv-1' } });
    await expect(session.peer.request({ method: 'ping' }, { signal: controller.signal })).rejects.toMatchObject({
      code: 'closed',
    });
    expect(out).toHaveLength(2);
  });

  it('L-S8: a server request times out after peerRequestTimeoutMs, withdrawn with notifications/cancelled', async () => {
    vi.useFakeTimers();
    const { session, out } = setup(rootsRuntime, { peerRequestTimeoutMs: 1000 });
    const pending = session.peer.request({ method: 'roots/list' });
    const outcome = pending.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(999);
    expect(session.peer.pendingRequests).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'timeout', message: 'No response to roots/list within 1000 ms' });
    expect(out[1]).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 'srv-1' } });
  });

  it('L-S8: the default timeout is 5 minutes, and 0 disables it', async () => {
    vi.useFakeTimers();
    const byDefault = setup(rootsRuntime);
    const never = setup(rootsRuntime, { peerRequestTimeoutMs: 0 });
    const timedOut = byDefault.session.peer.request({ method: 'ping' }).catch((error: unknown) => error);
    void never.session.peer.request({ method: 'ping' }).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(300_000 - 1);
    expect(byDefault.session.peer.pendingRequests).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await timedOut).toMatchObject({ code: 'timeout' });
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(never.session.peer.pendingRequests).toBe(1);
    never.session.close();
  });

  it('bounds pending server requests per connection (maxPeerRequests; default 64)', async () => {
    const small = setup(rootsRuntime, { maxPeerRequests: 2 });
    const held = [small.session.peer.request({ method: 'ping' }), small.session.peer.request({ method: 'ping' })];
    void held[1]?.catch(() => undefined);
    const refused = await small.session.peer.request({ method: 'ping' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TransportError);
    expect(refused).toMatchObject({ code: 'send_failed' });
    expect((refused as Error).message).toContain('limit 2');
    expect(small.out).toHaveLength(2);
    // An answer frees a slot.
    small.session.receive({ jsonrpc: '2.0', id: 'srv-1', result: {} });
    await held[0];
    void small.session.peer.request({ method: 'ping' }).catch(() => undefined);
    expect(small.out.at(-1)).toMatchObject({ id: 'srv-3', method: 'ping' });

    const byDefault = setup(rootsRuntime);
    for (let n = 0; n < 64; n++) void byDefault.session.peer.request({ method: 'ping' }).catch(() => undefined);
    await expect(byDefault.session.peer.request({ method: 'ping' })).rejects.toMatchObject({ code: 'send_failed' });
    small.session.close();
    byDefault.session.close();
  });

  it('a server request that cannot be serialized rejects with send_failed and writes nothing', async () => {
    const { session, out } = setup(rootsRuntime);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(session.peer.request({ method: 'ping', params: cyclic })).rejects.toMatchObject({
      code: 'send_failed',
    });
    expect(out).toEqual([]);
    expect(session.peer.pendingRequests).toBe(0);
  });
});
