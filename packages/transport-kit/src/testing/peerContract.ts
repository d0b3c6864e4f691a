/**
 * The transport contract's 2025-era session checks, for transports whose connection is the session (stdio,
 * WebSocket): server-to-client requests and notifications, both directions.
 */
import type { ClientPeerHandler, TransportNotification, TransportRequest } from '@mcp-tasks/protocol';
import { expect, it, vi } from 'vitest';
import { contractRequest, resultOf, stateOf } from './contractRequests.js';
import type { OpenedTransport, OpenTransport, SkipContext } from './transportUnderTest.js';

/** A peer handler that records what it got and answers `roots/list` with one root; other methods wait for abort. */
function recordingPeer() {
  const requests: TransportRequest[] = [];
  const notifications: TransportNotification[] = [];
  const aborted: string[] = [];
  const handler: ClientPeerHandler = {
    onRequest: (request, { signal }) => {
      requests.push(request);
      if (request.method === 'roots/list') {
        return Promise.resolve({ jsonrpc: '2.0', id: request.id, result: { roots: [{ uri: 'file:///contract' }] } });
      }
      return new Promise((resolve) =>
        signal.addEventListener(
          'abort',
          () => {
            aborted.push(request.method);
            resolve({ jsonrpc: '2.0', id: request.id, error: { code: -32800, message: 'Request cancelled' } });
          },
          { once: true },
        ),
      );
    },
    onNotification: (notification) => notifications.push(notification),
  };
  return { handler, requests, notifications, aborted };
}

/**
 * Opens a transport whose client can take part in a session, with a {@link recordingPeer} installed unless
 * `withHandler` is false, or skips the check when the transport declares no connection session.
 */
async function openWithPeer(
  open: OpenTransport,
  enabled: boolean,
  context: SkipContext,
  withHandler = true,
): Promise<{ opened: OpenedTransport; peer: ReturnType<typeof recordingPeer> } | undefined> {
  if (!enabled) {
    context.skip('not applicable: the transport does not declare connectionSession (its connection is no session)');
    return undefined;
  }
  const opened = await open();
  expect(opened.client.setPeerHandler, 'a connection-session client implements setPeerHandler').toBeTypeOf('function');
  const peer = recordingPeer();
  if (withHandler) opened.client.setPeerHandler?.(peer.handler);
  return { opened, peer };
}

export function peerContract(open: OpenTransport, enabled: boolean): void {
  it('L-S7 L-S22 L-C11: a server request made while serving a client request reaches the peer handler and its answer returns', (context) =>
    serverRequestReturns(open, enabled, context));
  it('L-C11: without a peer handler the client answers a server request -32601', (context) =>
    noPeerHandler(open, enabled, context));
  it('every message on the connection carries the same session; session.notify reaches onNotification', (context) =>
    oneSessionPerConnection(open, enabled, context));
  it('L-S30: cancelling the client request withdraws its server request, aborting the peer handler signal', (context) =>
    cancelWithdrawsServerRequest(open, enabled, context));
  it('rejects pending server requests with TransportError(closed) when the connection closes', (context) =>
    closeRejectsServerRequests(open, enabled, context));
  it('L-S22 L-S30: drops responses naming no server request; ignores a client cancellation naming one', (context) =>
    strayResponses(open, enabled, context));
}

async function serverRequestReturns(open: OpenTransport, enabled: boolean, context: SkipContext): Promise<void> {
  const started = await openWithPeer(open, enabled, context);
  if (started === undefined) return;
  const { opened, peer } = started;
  for (const via of ['context', 'session']) {
    const response = await opened.client.request(contractRequest('test/peerRequest', { method: 'roots/list', via }));
    const reply = resultOf(response).reply as Record<string, unknown>;
    expect(reply).toMatchObject({ jsonrpc: '2.0', result: { roots: [{ uri: 'file:///contract' }] } });
  }
  expect(peer.requests.map((request) => request.method)).toEqual(['roots/list', 'roots/list']);
  // L-S7: the server's ids are strings or integers, unique on the connection.
  const ids = peer.requests.map((request) => request.id);
  expect(new Set(ids).size).toBe(2);
  for (const id of ids) expect(['string', 'number']).toContain(typeof id);
}

async function noPeerHandler(open: OpenTransport, enabled: boolean, context: SkipContext): Promise<void> {
  const started = await openWithPeer(open, enabled, context, false);
  if (started === undefined) return;
  const { opened } = started;
  const response = await opened.client.request(contractRequest('test/peerRequest', { method: 'roots/list' }));
  expect(resultOf(response).reply).toMatchObject({ error: { code: -32601 } });
}

async function oneSessionPerConnection(open: OpenTransport, enabled: boolean, context: SkipContext): Promise<void> {
  const started = await openWithPeer(open, enabled, context);
  if (started === undefined) return;
  const { opened, peer } = started;
  const first = resultOf(await opened.client.request(contractRequest('test/session'))).sessionId;
  const second = resultOf(await opened.client.request(contractRequest('test/session'))).sessionId;
  expect(first).toBeTypeOf('string');
  expect(second).toBe(first);
  const notification = { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { n: 1 } };
  expect(resultOf(await opened.client.request(contractRequest('test/peerNotify', { notification })))).toEqual({
    sent: true,
  });
  await vi.waitFor(() => expect(peer.notifications).toEqual([notification]));
}

async function cancelWithdrawsServerRequest(
  open: OpenTransport,
  enabled: boolean,
  context: SkipContext,
): Promise<void> {
  const started = await openWithPeer(open, enabled, context);
  if (started === undefined) return;
  const { opened, peer } = started;
  const controller = new AbortController();
  const call = opened.client
    .request(contractRequest('test/peerRequest', { method: 'elicitation/create' }), { signal: controller.signal })
    .catch((error: unknown) => error);
  await vi.waitFor(() => expect(peer.requests).toHaveLength(1));
  controller.abort();
  await call;
  await vi.waitFor(() => expect(peer.aborted).toEqual(['elicitation/create']));
  await vi.waitFor(async () =>
    expect((await stateOf(opened.client)).peerOutcomes).toEqual(['elicitation/create:closed']),
  );
}

async function closeRejectsServerRequests(open: OpenTransport, enabled: boolean, context: SkipContext): Promise<void> {
  const started = await openWithPeer(open, enabled, context);
  if (started === undefined) return;
  const { opened, peer } = started;
  const call = opened.client
    .request(contractRequest('test/peerRequest', { method: 'sampling/createMessage', via: 'session' }))
    .catch((error: unknown) => error);
  await vi.waitFor(() => expect(peer.requests).toHaveLength(1));
  const { state } = opened;
  if (state === undefined) {
    context.skip('not applicable: the handler runs in another process, whose state is gone with the connection');
    return;
  }
  await opened.client.close();
  await call;
  await vi.waitFor(() => expect(state.peerOutcomes).toEqual(['sampling/createMessage:closed']));
}

async function strayResponses(open: OpenTransport, enabled: boolean, context: SkipContext): Promise<void> {
  const started = await openWithPeer(open, enabled, context);
  if (started === undefined) return;
  const { opened } = started;
  if (opened.openRaw === undefined) {
    context.skip('not applicable: start() returned no openRaw');
    return;
  }
  const raw = await opened.openRaw();
  try {
    const call = contractRequest('test/peerRequest', { method: 'roots/list' });
    await raw.send(JSON.stringify(call));
    const asked = (await raw.next()) as Record<string, unknown>;
    expect(asked).toMatchObject({ jsonrpc: '2.0', method: 'roots/list' });
    await raw.send(JSON.stringify({ jsonrpc: '2.0', id: 'no-such-request', result: {} }));
    await raw.send(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: asked.id } };
    await raw.send(JSON.stringify(cancel));
    await raw.send(JSON.stringify({ jsonrpc: '2.0', id: asked.id, result: { roots: [] } }));
    expect(await raw.next()).toEqual({
      jsonrpc: '2.0',
      id: call.id,
      result: { reply: { jsonrpc: '2.0', id: asked.id, result: { roots: [] } } },
    });
  } finally {
    await raw.close();
  }
}
