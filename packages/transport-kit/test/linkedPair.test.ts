import type { MessageHandler, RequestContext, TransportNotification, TransportResponse } from '@mcp-tasks/protocol';
import { TransportError } from '@mcp-tasks/protocol';
import { describe, expect, it, vi } from 'vitest';
import { linkedPair } from '../src/testing/index.js';

const request = (id: number, method = 'ping', params: Record<string, unknown> = {}) =>
  ({ jsonrpc: '2.0', id, method, params }) as const;

const ok = (id: unknown, result: Record<string, unknown> = {}): TransportResponse =>
  ({ jsonrpc: '2.0', id, result: { resultType: 'complete', ...result } }) as TransportResponse;

/** A handler that parks every request until the test releases it, recording the contexts it got. */
function parkingHandler() {
  const contexts: RequestContext[] = [];
  const messages: unknown[] = [];
  const releases: Array<(response: TransportResponse | undefined) => void> = [];
  const handler: MessageHandler = (message, context) => {
    messages.push(message);
    contexts.push(context);
    return new Promise((resolve) => releases.push(resolve));
  };
  return { handler, contexts, messages, releases };
}

describe('linkedPair', () => {
  it('hands each request to the handler with the configured principal', async () => {
    const seen: RequestContext[] = [];
    const pair = linkedPair(
      async (message, context) => {
        seen.push(context);
        return ok((message as { id: number }).id);
      },
      { principal: 'alice' },
    );
    const response = await pair.request(request(1));
    expect(response).toEqual(ok(1));
    expect(seen[0]?.principal).toBe('alice');
    expect(seen[0]?.signal.aborted).toBe(false);
  });

  it('omits principal when not configured', async () => {
    let context: RequestContext | undefined;
    const pair = linkedPair(async (message, c) => {
      context = c;
      return ok((message as { id: number }).id);
    });
    await pair.request(request(1));
    expect(context).toBeDefined();
    expect('principal' in (context ?? {})).toBe(false);
  });

  it('copies messages through JSON in both directions, sharing no object', async () => {
    const sent = { nested: { value: 1 }, dropped: undefined, date: new Date(0) };
    const serverResult = { payload: { value: 2 } };
    let received: unknown;
    const pair = linkedPair(async (message) => {
      received = message;
      return { jsonrpc: '2.0', id: 7, result: serverResult };
    });
    const response = await pair.request(request(7, 'ping', sent));
    expect(received).toEqual({
      jsonrpc: '2.0',
      id: 7,
      method: 'ping',
      params: { nested: { value: 1 }, date: '1970-01-01T00:00:00.000Z' },
    });
    expect((received as { params: { nested: unknown } }).params.nested).not.toBe(sent.nested);
    expect('result' in response && response.result.payload).toEqual({ value: 2 });
    expect('result' in response && response.result.payload).not.toBe(serverResult.payload);
  });

  it('delivers notifications in order, before the response, never after it', async () => {
    const events: string[] = [];
    let late: RequestContext['notify'] | undefined;
    const pair = linkedPair(async (message, context) => {
      context.notify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } });
      context.notify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 2 } });
      late = context.notify;
      return ok((message as { id: number }).id);
    });
    const response = await pair.request(request(1), {
      onNotification: (n: TransportNotification) => events.push(`${n.method}:${String(n.params?.progress)}`),
    });
    events.push('response');
    late?.({ jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 3 } });
    await pair.idle();
    expect(response).toEqual(ok(1));
    expect(events).toEqual(['notifications/progress:1', 'notifications/progress:2', 'response']);
  });

  it('delivers notifications asynchronously, never inside the handler call', async () => {
    const onNotification = vi.fn();
    const parked = parkingHandler();
    const pair = linkedPair(parked.handler);
    const done = pair.request(request(1), { onNotification });
    await vi.waitFor(() => expect(parked.contexts).toHaveLength(1));
    parked.contexts[0]?.notify({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
    expect(onNotification).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(onNotification).toHaveBeenCalledOnce());
    parked.releases[0]?.(ok(1));
    await expect(done).resolves.toEqual(ok(1));
  });

  it('aborting the request signal rejects with its reason and aborts the handler context', async () => {
    const parked = parkingHandler();
    const pair = linkedPair(parked.handler);
    const controller = new AbortController();
    const done = pair.request(request(1), { signal: controller.signal });
    await vi.waitFor(() => expect(parked.contexts).toHaveLength(1));
    expect(pair.inFlight).toBe(1);
    const reason = new Error('caller gave up');
    controller.abort(reason);
    await expect(done).rejects.toBe(reason);
    expect(parked.contexts[0]?.signal.aborted).toBe(true);
    expect(pair.inFlight).toBe(0);
    parked.releases[0]?.(ok(1)); // a late response is dropped
    await pair.idle();
  });

  it('rejects at once when the signal is already aborted, without calling the handler', async () => {
    const handler = vi.fn<MessageHandler>();
    const pair = linkedPair(handler);
    const reason = new Error('already');
    await expect(pair.request(request(1), { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(handler).not.toHaveBeenCalled();
  });

  it('notifications/cancelled from the client aborts the matching handler context only', async () => {
    const parked = parkingHandler();
    const pair = linkedPair(parked.handler);
    const controller = new AbortController();
    const first = pair.request(request(1), { signal: controller.signal });
    const second = pair.request(request(2));
    await vi.waitFor(() => expect(parked.contexts).toHaveLength(2));
    await pair.notify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'nope' } });
    expect(parked.contexts[0]?.signal.aborted).toBe(true);
    expect(parked.contexts[0]?.signal.reason).toMatchObject({ name: 'AbortError', message: 'nope' });
    expect(parked.contexts[1]?.signal.aborted).toBe(false);
    expect(pair.inFlight).toBe(1);
    parked.releases[1]?.(ok(2));
    await expect(second).resolves.toEqual(ok(2));
    // As on a wire, the cancelled request gets no answer; the caller's own signal ends it.
    parked.releases[0]?.(ok(1));
    controller.abort(new Error('done waiting'));
    await expect(first).rejects.toThrow('done waiting');
  });

  it('hands other client notifications to the handler without expecting an answer', async () => {
    const handler = vi.fn<MessageHandler>(async () => undefined);
    const pair = linkedPair(handler);
    await pair.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await pair.idle();
    expect(handler).toHaveBeenCalledWith({ jsonrpc: '2.0', method: 'notifications/initialized' }, expect.anything());
  });

  it('close() rejects in-flight requests with TransportError(closed), aborts handlers, and is idempotent', async () => {
    const parked = parkingHandler();
    const pair = linkedPair(parked.handler);
    const first = pair.request(request(1));
    const second = pair.request(request(2));
    await vi.waitFor(() => expect(parked.contexts).toHaveLength(2));
    await pair.close();
    await pair.close();
    for (const done of [first, second]) {
      await expect(done).rejects.toSatisfy((e) => e instanceof TransportError && e.code === 'closed');
    }
    expect(parked.contexts.every((c) => c.signal.aborted)).toBe(true);
    expect(parked.contexts[0]?.signal.reason).toBeInstanceOf(TransportError);
    await expect(pair.request(request(3))).rejects.toSatisfy((e) => e instanceof TransportError && e.code === 'closed');
    await expect(pair.notify({ jsonrpc: '2.0', method: 'x' })).rejects.toBeInstanceOf(TransportError);
    for (const release of parked.releases) release(undefined);
    await pair.idle();
    expect(parked.messages).toHaveLength(2);
  });

  it('drops notifications once the request was aborted', async () => {
    const parked = parkingHandler();
    const onNotification = vi.fn();
    const pair = linkedPair(parked.handler);
    const controller = new AbortController();
    const done = pair.request(request(1), { signal: controller.signal, onNotification });
    await vi.waitFor(() => expect(parked.contexts).toHaveLength(1));
    controller.abort(new Error('stop'));
    await expect(done).rejects.toThrow('stop');
    parked.contexts[0]?.notify({ jsonrpc: '2.0', method: 'notifications/progress', params: {} });
    parked.releases[0]?.(ok(1));
    await pair.idle();
    expect(onNotification).not.toHaveBeenCalled();
  });

  it('refuses a second request with an id that is still in flight', async () => {
    const parked = parkingHandler();
    const pair = linkedPair(parked.handler);
    const first = pair.request(request(1));
    await expect(pair.request(request(1))).rejects.toSatisfy(
      (e) => e instanceof TransportError && e.code === 'send_failed',
    );
    await vi.waitFor(() => expect(parked.releases).toHaveLength(1));
    parked.releases[0]?.(ok(1));
    await expect(first).resolves.toEqual(ok(1));
  });

  it('rejects an unserializable request with send_failed', async () => {
    const handler = vi.fn<MessageHandler>();
    const pair = linkedPair(handler);
    await expect(pair.request(request(1, 'ping', { big: 1n }))).rejects.toSatisfy(
      (e) => e instanceof TransportError && e.code === 'send_failed',
    );
    expect(handler).not.toHaveBeenCalled();
  });

  it('answers -32603 and reports when the handler breaks its contract', async () => {
    const onError = vi.fn();
    const rejecting = linkedPair(async () => Promise.reject(new Error('boom')), { onError });
    await expect(rejecting.request(request(1))).resolves.toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'Internal error' },
    });
    const unserializable = linkedPair(async () => ({ jsonrpc: '2.0', id: 2, result: { n: 1n } }), { onError });
    await expect(unserializable.request(request(2))).resolves.toMatchObject({ id: 2, error: { code: -32603 } });
    const silent = linkedPair(async () => undefined, { onError });
    await expect(silent.request(request(3))).rejects.toSatisfy(
      (e) => e instanceof TransportError && e.code === 'malformed_frame',
    );
    expect(onError).toHaveBeenCalledTimes(3);
  });
});
