import { describe, expect, it, vi } from 'vitest';
import { HttpSessions } from '../src/era-2025/httpSessions.js';
import { Exchange } from '../src/exchange.js';
import type { ResponseSink } from '../src/responseSink.js';

function sink(): ResponseSink & { replies: unknown[]; chunks: string[] } {
  const replies: unknown[] = [];
  const chunks: string[] = [];
  return {
    replies,
    chunks,
    reply: (status, body, headers) => replies.push({ status, body, headers }),
    openStream: (headers) => replies.push({ stream: headers }),
    write: (chunk) => {
      chunks.push(chunk);
      return 0;
    },
    end: () => {},
    destroy: () => {},
  };
}

const options = { keepAliveIntervalMs: 0, maxStreamBufferBytes: 1024 };

describe('Exchange: eras differ on a dropped connection', () => {
  it('a 2026-07-28 exchange aborts its signal when the client goes away', () => {
    const exchange = new Exchange(sink(), undefined, options);
    exchange.close();
    expect(exchange.signal.aborted).toBe(true);
  });

  it('L-S30: a 2025-era exchange does not; cancel() (notifications/cancelled, session end) does', () => {
    const session = new HttpSessions().create(undefined);
    if (session === undefined) throw new Error('no session');
    const exchange = new Exchange(sink(), undefined, options, { session, errorsOnOk: true });
    const signal = exchange.signal;
    exchange.close();
    expect(signal.aborted).toBe(false);
    exchange.cancel();
    expect(signal.aborted).toBe(true);
  });

  it('L-S26: a request of a closed exchange goes to the session route (GET stream or its queue)', async () => {
    const sessions = new HttpSessions();
    const session = sessions.create(undefined);
    if (session === undefined) throw new Error('no session');
    session.commit();
    const exchange = new Exchange(sink(), undefined, options, { session, errorsOnOk: true });
    exchange.close();
    const pending = exchange.request?.({ method: 'ping' });
    const get = sink();
    session.attachStream(get, options);
    // The stream hands the queued messages to the sink at the end of the tick, in one write.
    await vi.waitFor(() => expect(get.chunks.join('')).toContain('"method":"ping"'));
    session.deliverResponse({ jsonrpc: '2.0', id: 1, result: {} });
    await expect(pending).resolves.toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    sessions.close();
  });

  it("offers request() only on a 2025-era exchange; detached, it still writes on that request's own stream", async () => {
    expect(new Exchange(sink(), undefined, options).request).toBeUndefined();
    const sessions = new HttpSessions();
    const session = sessions.create(undefined);
    if (session === undefined) throw new Error('no session');
    session.commit();
    const own = sink();
    const exchange = new Exchange(own, undefined, options, { session, errorsOnOk: true });
    const request = exchange.request;
    if (request === undefined) throw new Error('a 2025-era exchange has request()');
    const pending = request({ method: 'ping' });
    expect(own.replies).toEqual([{ stream: expect.any(Object) }]);
    await vi.waitFor(() => expect(own.chunks.join('')).toContain('"method":"ping"'));
    session.deliverResponse({ jsonrpc: '2.0', id: 1, result: {} });
    await expect(pending).resolves.toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    sessions.close();
  });

  it('L-S35: a 2025-era error in a live session is written with HTTP 200', () => {
    const session = new HttpSessions().create(undefined);
    if (session === undefined) throw new Error('no session');
    const out = sink();
    new Exchange(out, undefined, options, { session, errorsOnOk: true }).finish({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'nope' },
    });
    expect(out.replies[0]).toMatchObject({ status: 200 });
  });
});
