/** The client side of a 2025-era session on a connection: server requests and unrelated notifications. */
import type {
  ClientPeerHandler,
  TransportNotification,
  TransportRequest,
  TransportResponse,
} from '@mcp-tasks/protocol';
import { TransportError } from '@mcp-tasks/protocol';
import { describe, expect, it, vi } from 'vitest';
import { ClientPeerDispatch, DEFAULT_MAX_SERVER_REQUESTS } from '../../src/era-2025/clientPeerDispatch.js';
import { PendingRequests } from '../../src/pendingRequests.js';

function setup(maxConcurrent?: number) {
  const sent: TransportResponse[] = [];
  const unrouted: TransportNotification[] = [];
  const errors: Error[] = [];
  const dispatch = new ClientPeerDispatch({
    send: (response) => {
      sent.push(response);
    },
    maxConcurrent,
    onUnroutedNotification: (n) => unrouted.push(n),
    onError: (e) => errors.push(e),
  });
  return { dispatch, sent, unrouted, errors };
}

/** A handler that parks every request until the test answers it. */
function parkingHandler() {
  const parked = new Map<unknown, { signal: AbortSignal; answer: (r: TransportResponse) => void }>();
  const notifications: TransportNotification[] = [];
  const handler: ClientPeerHandler = {
    onRequest: (request, { signal }) => new Promise((answer) => parked.set(request.id, { signal, answer })),
    onNotification: (n) => notifications.push(n),
  };
  return { handler, parked, notifications };
}

const serverRequest = (id: string | number, method = 'roots/list'): TransportRequest => ({
  jsonrpc: '2.0',
  id,
  method,
});

describe('ClientPeerDispatch', () => {
  it('L-C11: answers a server request -32601 while no peer handler is installed', () => {
    const { dispatch, sent } = setup();
    dispatch.receiveRequest(serverRequest('srv-1'));
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 'srv-1', error: { code: -32601, message: 'Method not found' } }]);
  });

  it('L-C11: hands a server request to onRequest and writes its response back, naming the request', async () => {
    const { dispatch, sent } = setup();
    const seen: TransportRequest[] = [];
    dispatch.setHandler({
      onRequest: async (request) => {
        seen.push(request);
        return { jsonrpc: '2.0', id: 'whatever', result: { roots: [] } };
      },
      onNotification: () => undefined,
    });
    dispatch.receiveRequest(serverRequest('srv-1'));
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    expect(seen).toEqual([serverRequest('srv-1')]);
    expect(sent[0]).toEqual({ jsonrpc: '2.0', id: 'srv-1', result: { roots: [] } });
    expect(dispatch.inFlight).toBe(0);
  });

  it('setHandler replaces the earlier handler', async () => {
    const { dispatch, sent } = setup();
    dispatch.setHandler({
      onRequest: async (r) => ({ jsonrpc: '2.0', id: r.id, result: { n: 1 } }),
      onNotification() {},
    });
    dispatch.setHandler({
      onRequest: async (r) => ({ jsonrpc: '2.0', id: r.id, result: { n: 2 } }),
      onNotification() {},
    });
    dispatch.receiveRequest(serverRequest(1, 'ping'));
    await vi.waitFor(() => expect(sent).toEqual([{ jsonrpc: '2.0', id: 1, result: { n: 2 } }]));
  });

  it('L-S30: the server cancelling its request aborts the handler signal, and no response is sent', async () => {
    const { dispatch, sent, unrouted } = setup();
    const { handler, parked } = parkingHandler();
    dispatch.setHandler(handler);
    dispatch.receiveRequest(serverRequest('srv-1', 'elicitation/create'));
    const entry = parked.get('srv-1');
    dispatch.receiveNotification({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'srv-1', reason: 'tool finished' },
    });
    expect(entry?.signal.aborted).toBe(true);
    expect(entry?.signal.reason).toMatchObject({ name: 'AbortError', message: 'tool finished' });
    entry?.answer({ jsonrpc: '2.0', id: 'srv-1', result: { action: 'cancel' } });
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toEqual([]);
    // The cancellation was consumed, not passed on.
    expect(unrouted).toEqual([]);
  });

  it('takeCancellation() aborts a running server request (true) and says false for anything else', () => {
    const { dispatch } = setup();
    const { handler, parked } = parkingHandler();
    expect(dispatch.handler).toBeUndefined();
    dispatch.setHandler(handler);
    expect(dispatch.handler).toBe(handler);
    dispatch.receiveRequest(serverRequest(7));
    const cancelled = (requestId: unknown): TransportNotification => ({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId },
    });
    expect(
      dispatch.takeCancellation({ jsonrpc: '2.0', method: 'notifications/progress', params: { requestId: 7 } }),
    ).toBe(false);
    expect(dispatch.takeCancellation(cancelled('7'))).toBe(false);
    expect(dispatch.takeCancellation(cancelled(undefined))).toBe(false);
    expect(dispatch.takeCancellation(cancelled(7))).toBe(true);
    expect(parked.get(7)?.signal.reason).toMatchObject({
      name: 'AbortError',
      message: 'Request cancelled by the server',
    });
    expect(dispatch.inFlight).toBe(0);
    expect(dispatch.takeCancellation(cancelled(7))).toBe(false);
  });

  it('passes other notifications (and cancellations naming nothing running) to onNotification and the observer', () => {
    const { dispatch, unrouted } = setup();
    const { handler, notifications } = parkingHandler();
    const changed: TransportNotification = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
    dispatch.receiveNotification(changed);
    expect(unrouted).toEqual([changed]);
    dispatch.setHandler(handler);
    const stray: TransportNotification = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'srv-9' },
    };
    dispatch.receiveNotification(changed);
    dispatch.receiveNotification(stray);
    expect(notifications).toEqual([changed, stray]);
  });

  it('answers -32603 when the handler rejects or returns nothing, and reports it', async () => {
    const { dispatch, sent, errors } = setup();
    dispatch.setHandler({
      onRequest: async (request) => {
        if (request.method === 'a') throw new Error('boom');
        return undefined as unknown as TransportResponse;
      },
      onNotification: () => {
        throw new Error('observer broke');
      },
    });
    dispatch.receiveRequest(serverRequest(1, 'a'));
    dispatch.receiveRequest(serverRequest(2, 'b'));
    dispatch.receiveNotification({ jsonrpc: '2.0', method: 'x' });
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    expect(sent).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'Internal error' } },
    ]);
    expect(errors.map((e) => e.message)).toEqual([
      'observer broke',
      'boom',
      'The peer handler answered server request 2 with nothing',
    ]);
  });

  it('bounds concurrent server requests (maxConcurrent; default 64) and refuses a duplicate id', async () => {
    expect(DEFAULT_MAX_SERVER_REQUESTS).toBe(64);
    const { dispatch, sent } = setup(2);
    const { handler, parked } = parkingHandler();
    dispatch.setHandler(handler);
    dispatch.receiveRequest(serverRequest(1));
    dispatch.receiveRequest(serverRequest(1));
    dispatch.receiveRequest(serverRequest(2));
    dispatch.receiveRequest(serverRequest(3));
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32600, message: 'Invalid Request: a request with this id is still in flight' },
      },
      {
        jsonrpc: '2.0',
        id: 3,
        error: {
          code: -32600,
          message: 'Invalid Request: too many server requests running (limit 2)',
          data: { limit: 'maxServerRequests', max: 2 },
        },
      },
    ]);
    parked.get(1)?.answer({ jsonrpc: '2.0', id: 1, result: {} });
    await vi.waitFor(() => expect(dispatch.inFlight).toBe(1));
    dispatch.receiveRequest(serverRequest(4));
    expect(dispatch.inFlight).toBe(2);

    const byDefault = setup();
    byDefault.dispatch.setHandler(parkingHandler().handler);
    for (let n = 0; n < 65; n++) byDefault.dispatch.receiveRequest(serverRequest(n));
    expect(byDefault.dispatch.inFlight).toBe(64);
    expect(byDefault.sent).toMatchObject([{ id: 64, error: { code: -32600 } }]);
  });

  it('abortAll aborts every running server request with the reason and sends none of their responses', async () => {
    const { dispatch, sent } = setup();
    const { handler, parked } = parkingHandler();
    dispatch.setHandler(handler);
    dispatch.receiveRequest(serverRequest(1));
    const reason = new TransportError('closed', 'gone');
    dispatch.abortAll(reason);
    expect(parked.get(1)?.signal.reason).toBe(reason);
    parked.get(1)?.answer({ jsonrpc: '2.0', id: 1, result: {} });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toEqual([]);
    expect(dispatch.inFlight).toBe(0);
  });

  it('reports a response it could not write (the connection is gone) instead of throwing', async () => {
    const errors: Error[] = [];
    const dispatch = new ClientPeerDispatch({
      send: () => {
        throw new TransportError('closed', 'gone');
      },
      onError: (e) => errors.push(e),
    });
    dispatch.receiveRequest(serverRequest(1));
    expect(errors[0]?.message).toBe('Could not send the response to a server request');
  });

  it('with PendingRequests: server requests and unrelated notifications reach it; request-scoped ones do not', async () => {
    const { dispatch, sent, unrouted } = setup();
    const { handler, parked, notifications } = parkingHandler();
    dispatch.setHandler(handler);
    const pending = new PendingRequests({
      send: () => undefined,
      onRequest: dispatch.receiveRequest,
      onUnroutedNotification: dispatch.receiveNotification,
    });
    const progress: TransportNotification[] = [];
    const call = pending.request(
      { jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { _meta: { progressToken: 't' } } },
      { onNotification: (n) => progress.push(n) },
    );
    const scoped = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } };
    const unrelated = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } };
    expect(pending.receive(scoped)).toBe(true);
    expect(pending.receive(unrelated)).toBe(true);
    expect(pending.receive(serverRequest('srv-1'))).toBe(true);
    expect(progress).toEqual([scoped]);
    expect(notifications).toEqual([unrelated]);
    expect(unrouted).toEqual([unrelated]);
    parked.get('srv-1')?.answer({ jsonrpc: '2.0', id: 'srv-1', result: { roots: [] } });
    await vi.waitFor(() => expect(sent).toEqual([{ jsonrpc: '2.0', id: 'srv-1', result: { roots: [] } }]));
    pending.receive({ jsonrpc: '2.0', id: 'c1', result: {} });
    await call;
    // Without onRequest a server request is not routable, as before.
    expect(new PendingRequests({ send: () => undefined }).receive(serverRequest(1))).toBe(false);
  });
});
