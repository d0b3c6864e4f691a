import type { MessageHandler, RequestContext, TransportResponse } from '@mcp-tasks/protocol';
import { TransportError } from '@mcp-tasks/protocol';
import { describe, expect, it, vi } from 'vitest';
import { ServerSession } from '../src/serverSession.js';

const SUB = 'io.modelcontextprotocol/subscriptionId';

function setup(handler: MessageHandler, principal?: string) {
  const out: unknown[] = [];
  const errors: Error[] = [];
  const session = new ServerSession({
    handler,
    principal,
    write: (text) => out.push(JSON.parse(text)),
    onError: (e) => errors.push(e),
  });
  return { session, out, errors };
}

/** A handler that parks each request until the test resolves it, exposing the context. */
function parkingHandler() {
  const parked = new Map<unknown, { context: RequestContext; finish: (r: TransportResponse | undefined) => void }>();
  const seen: unknown[] = [];
  const handler: MessageHandler = (message, context) => {
    seen.push(message);
    const id = (message as { id?: unknown }).id;
    return new Promise((resolve) => parked.set(id, { context, finish: resolve }));
  };
  return { handler, parked, seen };
}

const req = (id: string | number, method = 'm', params?: object) => ({ jsonrpc: '2.0', id, method, params });

describe('ServerSession', () => {
  it('answers unparseable text with -32700 and id null, then keeps working', async () => {
    const { session, out } = setup(async (m) => ({ jsonrpc: '2.0', id: (m as { id: number }).id, result: {} }));
    session.receiveText('{"jsonrpc":');
    session.receiveText(JSON.stringify(req(1)));
    await session.idle();
    expect(out).toEqual([
      { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: invalid JSON' } },
      { jsonrpc: '2.0', id: 1, result: {} },
    ]);
  });

  it('hands out notify and request as functions that work on their own, the same ones on every read', async () => {
    const { handler, parked } = parkingHandler();
    const { session, out } = setup(handler);
    session.receive(req(1));
    const context = parked.get(1)?.context as RequestContext;
    // A wrapper that spreads the context keeps both (signal is read, not copied: see HandlerCall).
    const { notify, request } = { ...context };
    expect(context.notify).toBe(notify);
    expect(context.request).toBe(request);
    notify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } });
    const asked = request?.({ method: 'roots/list' });
    expect(out.at(-1)).toMatchObject({ method: 'roots/list' });
    const askedId = (out.at(-1) as { id: number }).id;
    session.receive({ jsonrpc: '2.0', id: askedId, result: { roots: [] } });
    await expect(asked).resolves.toMatchObject({ id: askedId, result: { roots: [] } });
    parked.get(1)?.finish({ jsonrpc: '2.0', id: 1, result: {} });
    await session.idle();
    expect(out[0]).toMatchObject({ method: 'notifications/progress' });
    expect(out.at(-1)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });

  it('runs requests concurrently and answers them in completion order', async () => {
    const { handler, parked } = parkingHandler();
    const { session, out } = setup(handler);
    session.receive(req(1));
    session.receive(req('two'));
    expect(session.inFlight).toBe(2);
    parked.get('two')?.finish({ jsonrpc: '2.0', id: 'two', result: { n: 2 } });
    parked.get(1)?.finish({ jsonrpc: '2.0', id: 1, result: { n: 1 } });
    await session.idle();
    expect(out.map((m) => (m as { id: unknown }).id)).toEqual(['two', 1]);
    expect(session.inFlight).toBe(0);
  });

  it('passes the principal and writes notify() output before the response, dropping it afterwards', async () => {
    const { handler, parked } = parkingHandler();
    const { session, out } = setup(handler, 'alice');
    session.receive(req(1));
    const entry = parked.get(1);
    expect(entry?.context.principal).toBe('alice');
    entry?.context.notify({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 't', progress: 1 },
    });
    entry?.finish({ jsonrpc: '2.0', id: 1, result: {} });
    await session.idle();
    entry?.context.notify({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 't', progress: 2 },
    });
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ method: 'notifications/progress' });
    expect(out[1]).toMatchObject({ id: 1, result: {} });
  });

  it('aborts a request on notifications/cancelled and sends nothing more for it', async () => {
    const { handler, parked } = parkingHandler();
    const { session, out } = setup(handler);
    session.receive(req(7));
    const entry = parked.get(7);
    session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'user' } });
    expect(entry?.context.signal.aborted).toBe(true);
    expect(entry?.context.signal.reason).toHaveProperty('message', 'user');
    entry?.context.notify({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
    entry?.finish({ jsonrpc: '2.0', id: 7, result: {} });
    await session.idle();
    expect(out).toEqual([]);
    expect(session.inFlight).toBe(0);
  });

  it('ignores notifications/cancelled for unknown ids and never passes it to the handler', async () => {
    const { handler, seen } = parkingHandler();
    const { session, out } = setup(handler);
    session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } });
    session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: 'junk' });
    await session.idle();
    expect(seen).toEqual([]);
    expect(out).toEqual([]);
  });

  it('passes other notifications to the handler and never answers them', async () => {
    const seen: unknown[] = [];
    const { session, out } = setup(async (m) => {
      seen.push(m);
      return { jsonrpc: '2.0', error: { code: -32600, message: 'should be dropped' } };
    });
    session.receive({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    await session.idle();
    expect(seen).toHaveLength(1);
    expect(out).toEqual([]);
  });

  it('L-S22: drops client responses naming no pending server request without calling the handler', async () => {
    const { handler, seen } = parkingHandler();
    const { session, out, errors } = setup(handler);
    session.receive({ jsonrpc: '2.0', id: 1, result: {} });
    session.receive({ jsonrpc: '2.0', id: 2, error: { code: 1, message: 'x' } });
    await session.idle();
    expect(seen).toEqual([]);
    expect(out).toEqual([]);
    expect(errors).toHaveLength(2);
  });

  it('hands non-JSON-RPC shapes to the runtime and writes its error response', async () => {
    const { session, out } = setup(async () => ({ jsonrpc: '2.0', error: { code: -32600, message: 'bad' } }));
    session.receive([1, 2]);
    session.receive(42);
    session.receive({ jsonrpc: '2.0', id: null, method: 'x' });
    await session.idle();
    expect(out).toHaveLength(3);
  });

  it('rejects a second request with an id that is still in flight', async () => {
    const { handler, parked, seen } = parkingHandler();
    const { session, out } = setup(handler);
    session.receive(req(1));
    session.receive(req(1));
    expect(seen).toHaveLength(1);
    expect(out).toEqual([{ jsonrpc: '2.0', id: 1, error: expect.objectContaining({ code: -32600 }) }]);
    parked.get(1)?.finish(undefined);
    await session.idle();
  });

  it('turns a rejecting handler into -32603 for that id and stays up', async () => {
    const { session, out, errors } = setup(async () => {
      throw new Error('boom');
    });
    session.receive(req(3));
    await session.idle();
    expect(out).toEqual([{ jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'Internal error' } }]);
    expect(errors[0]?.message).toBe('boom');
  });

  it('ends a server-finished listen with its result and then notifications/cancelled for the listen id', async () => {
    const { handler, parked } = parkingHandler();
    const { session, out } = setup(handler);
    session.receive(req(5, 'subscriptions/listen', { notifications: {} }));
    parked.get(5)?.finish({ jsonrpc: '2.0', id: 5, result: { resultType: 'complete', _meta: { [SUB]: 5 } } });
    await session.idle();
    expect(out).toEqual([
      { jsonrpc: '2.0', id: 5, result: { resultType: 'complete', _meta: { [SUB]: 5 } } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: expect.any(String) } },
    ]);
  });

  it('close() aborts every in-flight request with TransportError(closed) and drops their output', async () => {
    const { handler, parked } = parkingHandler();
    const { session, out } = setup(handler);
    session.receive(req(1));
    session.receive({ jsonrpc: '2.0', method: 'notifications/x' });
    session.close();
    session.close();
    for (const entry of parked.values()) {
      expect(entry.context.signal.reason).toBeInstanceOf(TransportError);
      entry.finish({ jsonrpc: '2.0', id: 1, result: {} });
    }
    expect(parked.size).toBe(2);
    await session.idle();
    session.receive(req(2));
    expect(out).toEqual([]);
  });

  it('answers -32603 when the handler resolves a request with no response', async () => {
    const { session, out, errors } = setup(async () => undefined);
    session.receive(req(4));
    await session.idle();
    expect(out).toEqual([{ jsonrpc: '2.0', id: 4, error: { code: -32603, message: 'Internal error' } }]);
    expect(errors).toHaveLength(1);
  });

  it('fires abort listeners on a signal read before the cancellation', async () => {
    const { handler, parked } = parkingHandler();
    const { session } = setup(handler);
    session.receive(req(1));
    const signal = parked.get(1)?.context.signal;
    const onAbort = vi.fn();
    signal?.addEventListener('abort', onAbort);
    expect(signal?.aborted).toBe(false);
    session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    expect(onAbort).toHaveBeenCalledOnce();
    expect(signal?.reason).toHaveProperty('name', 'AbortError');
    // The same signal every time it is read.
    expect(parked.get(1)?.context.signal).toBe(signal);
    parked.get(1)?.finish(undefined);
    await session.idle();
  });

  it('keeps the first abort reason: a close after a cancellation does not replace it', async () => {
    const { handler, parked } = parkingHandler();
    const { session } = setup(handler);
    session.receive(req(1));
    session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'first' } });
    session.close();
    expect(parked.get(1)?.context.signal.reason).toHaveProperty('message', 'first');
    parked.get(1)?.finish(undefined);
    await session.idle();
  });

  it('frees a cancelled id at once: a new request with it is answered, the old one stays silent', async () => {
    const { handler, parked } = parkingHandler();
    const { session, out } = setup(handler);
    session.receive(req(1));
    const first = parked.get(1);
    session.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    session.receive(req(1));
    const second = parked.get(1);
    expect(second).not.toBe(first);
    expect(session.inFlight).toBe(1);
    first?.finish({ jsonrpc: '2.0', id: 1, result: { n: 'old' } });
    second?.finish({ jsonrpc: '2.0', id: 1, result: { n: 'new' } });
    await session.idle();
    expect(out).toEqual([{ jsonrpc: '2.0', id: 1, result: { n: 'new' } }]);
    expect(session.inFlight).toBe(0);
  });

  it('turns a handler that throws synchronously into -32603 and stays up', async () => {
    const { session, out, errors } = setup(() => {
      throw new Error('sync boom');
    });
    session.receive(req(8));
    await session.idle();
    expect(out).toEqual([{ jsonrpc: '2.0', id: 8, error: { code: -32603, message: 'Internal error' } }]);
    expect(errors[0]?.message).toBe('sync boom');
  });

  it('idle() also waits for handler calls started while it waits', async () => {
    const { handler, parked } = parkingHandler();
    const { session } = setup(handler);
    session.receive(req(1));
    let idle = false;
    const waiting = session.idle().then(() => {
      idle = true;
    });
    session.receive(req(2));
    parked.get(1)?.finish({ jsonrpc: '2.0', id: 1, result: {} });
    await new Promise((resolve) => setImmediate(resolve));
    expect(idle).toBe(false);
    parked.get(2)?.finish({ jsonrpc: '2.0', id: 2, result: {} });
    await waiting;
    expect(idle).toBe(true);
    await expect(session.idle()).resolves.toBeUndefined();
  });

  it('idle(timeout) gives up on a handler that ignores its aborted signal', async () => {
    vi.useFakeTimers();
    try {
      const { session } = setup(() => new Promise(() => {}));
      session.receive(req(1));
      session.close();
      const idle = session.idle(5000);
      await vi.advanceTimersByTimeAsync(5000);
      await expect(idle).resolves.toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
