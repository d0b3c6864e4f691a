// 2025-era Streamable HTTP sessions, on both server fronts. Each test names the rules it checks (docs/spec-map.md).
import { TransportError } from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readSseEvents } from '../../src/readSseEvents.js';
import { mcpHeaders, rpc } from '../fakes.js';
import {
  call,
  eventReader,
  type Front,
  type FrontOptions,
  INITIALIZE,
  legacyHeaders,
  startFront,
} from './legacyFakes.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function start(kind: 'node' | 'fetch', options: FrontOptions = {}): Promise<Front> {
  const front = await startFront(kind, options);
  cleanup.push(() => front.close());
  return front;
}

/** Initializes a session and returns its id. */
async function open(front: Front): Promise<string> {
  const res = await front.send('POST', INITIALIZE, legacyHeaders());
  expect(res.status).toBe(200);
  await res.json();
  const id = res.headers.get('mcp-session-id');
  if (id === null) throw new Error('no Mcp-Session-Id');
  return id;
}

function reader(res: Response) {
  const events = eventReader(res);
  cleanup.push(() => events.stop());
  return events;
}

describe.each(['node', 'fetch'] as const)('Streamable HTTP sessions (%s front)', (kind) => {
  it('L-S14, L-S20: initialize (with MCP-Protocol-Version and Mcp-Method) gets a unique visible-ASCII Mcp-Session-Id', async () => {
    const front = await start(kind);
    const headers = legacyHeaders(undefined, { 'mcp-method': 'initialize' });
    const first = await front.send('POST', INITIALIZE, headers);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25' } });
    const id = first.headers.get('mcp-session-id') ?? '';
    expect(id).toMatch(/^[\x21-\x7e]{16,}$/);
    expect(front.record.contexts[0]?.session?.id).toBe(id);
    const second = await open(front);
    expect(second).not.toBe(id);
  });

  it('L-S14: an initialize the runtime refuses gets no session, and its provisional session is closed', async () => {
    const front = await start(kind);
    const res = await front.send('POST', { ...INITIALIZE, params: { protocolVersion: 'bad' } }, legacyHeaders());
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect((await res.json()).error.code).toBe(-32602);
    const session = front.record.contexts[0]?.session;
    expect(session?.closed.aborted).toBe(true);
    const reuse = await front.send('POST', call(1, 'x'), legacyHeaders(session?.id));
    expect(reuse.status).toBe(404);
  });

  it('L-S15: an unknown Mcp-Session-Id gets 404 with a JSON-RPC error naming the request', async () => {
    const front = await start(kind);
    const res = await front.send('POST', call(7, 'x'), legacyHeaders('no-such-session'));
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32600 } });
    expect(front.record.contexts).toHaveLength(0);
  });

  it('L-S15: a legacy request without Mcp-Session-Id takes the sessionless path (400, no session)', async () => {
    const front = await start(kind);
    const res = await front.send('POST', call(1, 'x'), legacyHeaders());
    expect(res.status).toBe(400);
    expect(res.headers.get('mcp-session-id')).toBeNull();
  });

  it('L-S9, L-S16: DELETE ends the session (204); its id then gets 404, on POST, GET and DELETE', async () => {
    const front = await start(kind);
    const id = await open(front);
    const session = front.record.sessions.get(id);
    const ended = await front.send('DELETE', undefined, { 'mcp-session-id': id });
    expect(ended.status).toBe(204);
    expect(session?.closed.aborted).toBe(true);
    expect((await front.send('POST', call(1, 'x'), legacyHeaders(id))).status).toBe(404);
    expect((await front.send('GET', undefined, { 'mcp-session-id': id })).status).toBe(404);
    expect((await front.send('DELETE', undefined, { 'mcp-session-id': id })).status).toBe(404);
  });

  it('L-S16, L-S17: GET and DELETE without Mcp-Session-Id keep 405', async () => {
    const front = await start(kind);
    for (const method of ['GET', 'DELETE']) {
      const res = await front.send(method, undefined, {});
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });

  it('L-S11, L-S35: a notification gets 202, a JSON-RPC error rides HTTP 200 inside a live session', async () => {
    const front = await start(kind);
    const id = await open(front);
    const note = await front.send('POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, legacyHeaders(id));
    expect(note.status).toBe(202);
    expect(await note.text()).toBe('');
    const failed = await front.send('POST', call(2, 'fail'), legacyHeaders(id));
    expect(failed.status).toBe(200);
    expect((await failed.json()).error.code).toBe(-32602);
    expect(front.record.contexts.at(-1)?.session?.id).toBe(id);
  });

  it('L-S17, L-S31: the GET stream carries session.notify (queued before it opened, and live); one per session (409)', async () => {
    const front = await start(kind);
    const id = await open(front);
    expect((await front.send('POST', call(1, 'broadcast'), legacyHeaders(id))).status).toBe(200);
    const get = await front.send('GET', undefined, { 'mcp-session-id': id, accept: 'text/event-stream' });
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('text/event-stream');
    const events = reader(get);
    expect(await events.next()).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    const second = await front.send('GET', undefined, { 'mcp-session-id': id });
    expect(second.status).toBe(409);
    await second.text();
    front.record.sessions
      .get(id)
      ?.notify({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'a' } });
    expect(await events.next()).toMatchObject({ method: 'notifications/resources/updated' });
  });

  it('L-S17: a GET stream with nothing queued answers its head at once, then carries what comes', async () => {
    // No keep-alive comment to flush the head either.
    const front = await start(kind, { keepAliveIntervalMs: 0 });
    const id = await open(front);
    const get = await front.send('GET', undefined, { 'mcp-session-id': id, accept: 'text/event-stream' });
    expect(get.status).toBe(200);
    expect(get.headers.get('mcp-session-id')).toBe(id);
    const events = reader(get);
    front.record.sessions.get(id)?.notify({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' });
    expect(await events.next()).toMatchObject({ method: 'notifications/prompts/list_changed' });
  });

  it('L-S17, L-S11: session.request goes on the GET stream and its POSTed response (202) resolves it', async () => {
    const front = await start(kind);
    const id = await open(front);
    const session = front.record.sessions.get(id);
    const answer = session?.request({ method: 'roots/list' });
    const events = reader(await front.send('GET', undefined, { 'mcp-session-id': id }));
    const request = await events.next();
    expect(request).toMatchObject({ jsonrpc: '2.0', method: 'roots/list' });
    expect(typeof request.id === 'number' || typeof request.id === 'string').toBe(true);
    const reply = { jsonrpc: '2.0', id: request.id, result: { roots: [] } };
    const posted = await front.send('POST', reply, legacyHeaders(id));
    expect(posted.status).toBe(202);
    expect(await posted.text()).toBe('');
    await expect(answer).resolves.toEqual(reply);
  });

  it('L-S26: context.request during a POST goes on that POST’s SSE stream; the POSTed answer resolves it', async () => {
    const front = await start(kind);
    const id = await open(front);
    const res = await front.send('POST', call(3, 'ask'), legacyHeaders(id));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = reader(res);
    const request = await events.next();
    expect(request).toMatchObject({ method: 'elicitation/create', params: { message: 'name?' } });
    const reply = { jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { name: 'x' } } };
    expect((await front.send('POST', reply, legacyHeaders(id))).status).toBe(202);
    expect(await events.next()).toMatchObject({ id: 3, result: { answer: reply } });
  });

  it('L-S12, L-S13: a plain call is answered as JSON; one that asks the client streams only its own messages and ends after its response', async () => {
    const front = await start(kind);
    const id = await open(front);
    const plain = await front.send('POST', call(4, 'other'), legacyHeaders(id));
    expect(plain.headers.get('content-type')).toContain('application/json');
    expect(await plain.json()).toMatchObject({ id: 4, result: {} });
    const res = await front.send('POST', call(5, 'ask'), legacyHeaders(id));
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = readSseEvents(res.body as ReadableStream<Uint8Array>);
    const request = JSON.parse((await events.next()).value as string) as { id: string; method: string };
    expect(request.method).toBe('elicitation/create');
    // A notification of another request while this one waits goes to the session, not to this stream.
    expect(await (await front.send('POST', call(6, 'broadcast'), legacyHeaders(id))).json()).toMatchObject({ id: 6 });
    const reply = { jsonrpc: '2.0', id: request.id, result: { action: 'decline' } };
    expect((await front.send('POST', reply, legacyHeaders(id))).status).toBe(202);
    expect(JSON.parse((await events.next()).value as string)).toMatchObject({ id: 5, result: { answer: reply } });
    expect((await events.next()).done).toBe(true);
  });

  it('L-S18: two concurrent POST streams of one session each carry their own request, answered out of order', async () => {
    const front = await start(kind);
    const id = await open(front);
    const first = reader(await front.send('POST', call(10, 'ask'), legacyHeaders(id)));
    const second = reader(await front.send('POST', call(11, 'ask'), legacyHeaders(id)));
    const [a, b] = [await first.next(), await second.next()];
    expect(a.id).not.toBe(b.id);
    await front.send('POST', { jsonrpc: '2.0', id: b.id, result: { action: 'decline' } }, legacyHeaders(id));
    expect(await second.next()).toMatchObject({ id: 11, result: { answer: { result: { action: 'decline' } } } });
    await front.send('POST', { jsonrpc: '2.0', id: a.id, result: { action: 'cancel' } }, legacyHeaders(id));
    expect(await first.next()).toMatchObject({ id: 10, result: { answer: { result: { action: 'cancel' } } } });
  });

  it('L-S30: notifications/cancelled aborts the signal of the request it names (and only that one)', async () => {
    const front = await start(kind);
    const id = await open(front);
    const waiting = front.send('POST', call(4, 'wait'), legacyHeaders(id));
    await vi.waitFor(() => expect(front.record.contexts).toHaveLength(2));
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } };
    expect((await front.send('POST', cancel, legacyHeaders(id))).status).toBe(202);
    expect(front.record.aborted).toEqual([]);
    const real = { ...cancel, params: { requestId: 4, reason: 'user' } };
    expect((await front.send('POST', real, legacyHeaders(id))).status).toBe(202);
    // No response to the cancelled request (the cancellation page): its POST gets an SSE stream that ends empty.
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(await res.text()).toBe('');
    expect(front.record.aborted).toEqual([4]);
  });

  it('L-S30: a request cancelled while its stream is open gets no response on it: the stream just ends', async () => {
    const front = await start(kind);
    const id = await open(front);
    const streaming = await front.send('POST', call(7, 'progressThenWait'), legacyHeaders(id));
    expect(streaming.headers.get('content-type')).toBe('text/event-stream');
    const events = reader(streaming);
    expect(await events.next()).toMatchObject({ method: 'notifications/progress' });
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } };
    expect((await front.send('POST', cancel, legacyHeaders(id))).status).toBe(202);
    await expect(events.next()).rejects.toThrow('the stream ended');
    expect(front.record.aborted).toEqual([7]);
  });

  it('L-S30: a legacy client that drops its POST does not cancel the request', async () => {
    const front = await start(kind);
    const id = await open(front);
    const controller = new AbortController();
    const waiting = front.send('POST', call(5, 'wait'), legacyHeaders(id), controller.signal);
    await vi.waitFor(() => expect(front.record.contexts).toHaveLength(2));
    const context = front.record.contexts[1];
    controller.abort();
    // fetch rejects; the fetch front settles its promise with a 400 nobody reads.
    await waiting.then(
      (res) => expect(res.status).toBe(400),
      (error: unknown) => expect(error).toBeInstanceOf(Error),
    );
    // The server learns of the drop on its own schedule; a ping round trip gives it the chance.
    expect((await front.send('POST', call(6, 'x'), legacyHeaders(id))).status).toBe(200);
    expect(context?.signal.aborted).toBe(false);
    await front.send(
      'POST',
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } },
      legacyHeaders(id),
    );
    await vi.waitFor(() => expect(front.record.aborted).toEqual([5]));
  });

  it('modern messages ignore Mcp-Session-Id, even a bogus one, and get no session', async () => {
    const front = await start(kind);
    const res = await front.send('POST', rpc(1, 'tools/list'), mcpHeaders('tools/list', { 'mcp-session-id': 'bogus' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(front.record.contexts[0]?.session).toBeUndefined();
    expect(front.record.contexts[0]?.request).toBeUndefined();
  });

  it('a legacy message whose MCP-Protocol-Version is no supported version gets 400', async () => {
    const front = await start(kind);
    const id = await open(front);
    const res = await front.send('POST', call(1, 'x'), legacyHeaders(id, { 'mcp-protocol-version': '2024-11-05' }));
    expect(res.status).toBe(400);
  });

  it('limits: past maxSessions initialize gets 503 + Retry-After; ending one makes room', async () => {
    const front = await start(kind, { sessions: { maxSessions: 1 } });
    const id = await open(front);
    const refused = await front.send('POST', INITIALIZE, legacyHeaders());
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ id: 0, error: { code: -32600 } });
    await front.send('DELETE', undefined, { 'mcp-session-id': id });
    await open(front);
  });

  it('limits: an idle session expires after idleTimeoutMs, then its id gets 404', async () => {
    const front = await start(kind, { sessions: { idleTimeoutMs: 30 } });
    const id = await open(front);
    await vi.waitFor(() => expect(front.record.sessions.get(id)?.closed.aborted).toBe(true));
    expect((await front.send('POST', call(1, 'x'), legacyHeaders(id))).status).toBe(404);
  });

  it('limits: maxPendingRequests and maxQueuedMessages reject with send_failed; close() ends sessions', async () => {
    const front = await start(kind, { sessions: { maxPendingRequests: 1, maxQueuedMessages: 1 } });
    const session = front.record.sessions.get(await open(front));
    const failure = (promise: Promise<unknown> | undefined) =>
      promise?.then(
        () => undefined,
        (error: unknown) => error,
      );
    const queued = failure(session?.request({ method: 'ping' }));
    expect(await failure(session?.request({ method: 'ping' }))).toMatchObject({ code: 'send_failed' });
    // A second queued message pushes the request out of the queue of one.
    session?.notify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(await queued).toMatchObject({ code: 'send_failed' });
    const pending = failure(session?.request({ method: 'roots/list' }));
    await front.close();
    expect(session?.closed.aborted).toBe(true);
    const closed = await pending;
    expect(closed).toBeInstanceOf(TransportError);
    expect(closed).toMatchObject({ code: 'closed' });
  });
});

describe('Streamable HTTP sessions: shared core (fetch front only, the logic is front-neutral)', () => {
  it('a session belongs to the principal that created it: another principal gets 404', async () => {
    const front = await start('fetch', {
      authenticate: (request: Request) => request.headers.get('x-user'),
    } as FrontOptions);
    const res = await front.send('POST', INITIALIZE, legacyHeaders(undefined, { 'x-user': 'alice' }));
    const id = res.headers.get('mcp-session-id') ?? '';
    await res.json();
    expect(front.record.contexts[0]?.principal).toBe('alice');
    const bob = await front.send('POST', call(1, 'x'), legacyHeaders(id, { 'x-user': 'bob' }));
    expect(bob.status).toBe(404);
    const alice = await front.send('POST', call(2, 'x'), legacyHeaders(id, { 'x-user': 'alice' }));
    expect(alice.status).toBe(200);
  });

  it('L-S8: aborting a session.request rejects it with closed and tells the client (notifications/cancelled)', async () => {
    const front = await start('fetch');
    const id = await open(front);
    const events = reader(await front.send('GET', undefined, { 'mcp-session-id': id }));
    const controller = new AbortController();
    const pending = front.record.sessions.get(id)?.request({ method: 'roots/list' }, { signal: controller.signal });
    const request = await events.next();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'closed' });
    expect(await events.next()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: request.id, reason: 'aborted' },
    });
    // A late answer to the cancelled request is accepted and ignored.
    const late = await front.send('POST', { jsonrpc: '2.0', id: request.id, result: {} }, legacyHeaders(id));
    expect(late.status).toBe(202);
  });

  it('an open GET stream keeps an idle session alive; closing it lets the session expire', async () => {
    const front = await start('fetch', { sessions: { idleTimeoutMs: 1000 } });
    const id = await open(front);
    const get = await front.send('GET', undefined, { 'mcp-session-id': id });
    const session = front.record.sessions.get(id);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      vi.advanceTimersByTime(5000);
      expect(session?.closed.aborted).toBe(false);
      await get.body?.cancel();
      vi.advanceTimersByTime(999);
      expect(session?.closed.aborted).toBe(false);
      vi.advanceTimersByTime(1);
      expect(session?.closed.aborted).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sessions: false turns sessions off: initialize gets no session, GET keeps 405', async () => {
    const front = await start('fetch', { sessions: false });
    const res = await front.send('POST', INITIALIZE, { 'content-type': 'application/json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(front.record.contexts[0]?.session).toBeUndefined();
    expect((await front.send('GET', undefined, { 'mcp-session-id': 'x' })).status).toBe(405);
  });
});
