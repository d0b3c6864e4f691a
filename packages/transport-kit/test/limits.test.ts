import type { MessageHandler, TransportResponse } from '@mcp-tasks/protocol';
import { describe, expect, it } from 'vitest';
import { decodeMessage, decodeUtf8, exceedsDepth } from '../src/decodeMessage.js';
import { ServerSession } from '../src/serverSession.js';

const nested = (depth: number): string => `${'['.repeat(depth - 1)}{}${']'.repeat(depth - 1)}`;

function parked() {
  const finishers = new Map<unknown, (r: TransportResponse) => void>();
  const handler: MessageHandler = (message) => {
    const id = (message as { id?: string | number }).id;
    return new Promise((resolve) => finishers.set(id, resolve));
  };
  return { handler, finishers };
}

function session(handler: MessageHandler, limits: { maxInFlight?: number; maxListens?: number; maxDepth?: number }) {
  const out: Array<{ id?: unknown; error?: { code: number; message: string; data?: unknown }; result?: unknown }> = [];
  const s = new ServerSession({ handler, write: (text) => out.push(JSON.parse(text)), ...limits });
  return { s, out };
}

describe('decodeMessage', () => {
  it('accepts nesting up to maxDepth and refuses deeper with -32602 and the request id', () => {
    expect(decodeMessage(`{"id":1,"params":${nested(63)}}`).ok).toBe(true);
    const deep = decodeMessage(`{"jsonrpc":"2.0","id":7,"method":"m","params":${nested(100_000)}}`);
    expect(deep).toMatchObject({ ok: false, error: { id: 7, error: { code: -32602, data: { maxDepth: 64 } } } });
  });

  it('counts brackets inside strings only against the scan, never against the message', () => {
    // Many `[` in a string: the scan cannot rule the message out, the walk finds it shallow.
    expect(decodeMessage(JSON.stringify({ id: 1, params: { text: '['.repeat(500) } })).ok).toBe(true);
    // Just past maxDepth, short (scanned) and long (walked without a scan).
    const pad = 'x'.repeat(5000);
    for (const text of [`{"id":2,"params":${nested(64)}}`, `{"id":2,"pad":"${pad}","params":${nested(64)}}`]) {
      expect(decodeMessage(text)).toMatchObject({ ok: false, error: { id: 2, error: { code: -32602 } } });
    }
  });

  it('counts both bracket kinds when it scans: objects and arrays mixed past maxDepth are refused', () => {
    // Alternating `{"a":[` levels: neither kind alone reaches the limit, together they pass it.
    const mixed = (levels: number) => {
      let text = '1';
      for (let level = 0; level < levels; level++) text = level % 2 === 0 ? `[${text}]` : `{"a":${text}}`;
      return text;
    };
    expect(decodeMessage(`{"id":3,"params":${mixed(63)}}`).ok).toBe(true);
    expect(decodeMessage(`{"id":3,"params":${mixed(64)}}`)).toMatchObject({
      ok: false,
      error: { id: 3, error: { code: -32602 } },
    });
  });

  it('walks a 1,000,000-deep value without recursion', () => {
    const value = JSON.parse(nested(1_000_000));
    expect(exceedsDepth(value, 64)).toBe(true);
    expect(exceedsDepth(value, 2_000_000)).toBe(false);
  });

  it('refuses invalid UTF-8 instead of replacing it', () => {
    expect(decodeUtf8(new Uint8Array([0x7b, 0xff, 0x7d]))).toBeUndefined();
    expect(decodeUtf8(new TextEncoder().encode('{"é":1}'))).toBe('{"é":1}');
  });
});

describe('ServerSession limits', () => {
  it('answers a request over maxInFlight with -32600 (data.limit) without running it, then accepts again', async () => {
    const { handler, finishers } = parked();
    const { s, out } = session(handler, { maxInFlight: 2 });
    for (const id of [1, 2, 3]) s.receive({ jsonrpc: '2.0', id, method: 'm' });
    expect(finishers.size).toBe(2);
    expect(out).toEqual([
      expect.objectContaining({
        id: 3,
        error: expect.objectContaining({ code: -32600, data: { limit: 'maxInFlight', max: 2 } }),
      }),
    ]);
    finishers.get(1)?.({ jsonrpc: '2.0', id: 1, result: {} });
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    await Promise.resolve();
    s.receive({ jsonrpc: '2.0', id: 4, method: 'm' });
    expect(finishers.has(4)).toBe(true);
  });

  it('caps open listen streams per connection; a cancelled listen frees its slot', () => {
    const { handler, finishers } = parked();
    const { s, out } = session(handler, { maxListens: 1 });
    s.receive({ jsonrpc: '2.0', id: 'a', method: 'subscriptions/listen', params: {} });
    s.receive({ jsonrpc: '2.0', id: 'b', method: 'subscriptions/listen', params: {} });
    expect(out[0]).toMatchObject({ id: 'b', error: { code: -32600, data: { limit: 'maxListens', max: 1 } } });
    s.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'a' } });
    s.receive({ jsonrpc: '2.0', id: 'c', method: 'subscriptions/listen', params: {} });
    expect(finishers.has('c')).toBe(true);
    expect(out).toHaveLength(1);
  });

  it('answers a too-deep frame with -32602 and keeps serving', async () => {
    const { s, out } = session(async (m) => ({ jsonrpc: '2.0', id: (m as { id: number }).id, result: {} }), {});
    s.receiveText(`{"jsonrpc":"2.0","id":1,"method":"m","params":{"x":${nested(200_000)}}}`);
    s.receiveBytes(new Uint8Array([0xc3, 0x28]));
    s.receiveText('{"jsonrpc":"2.0","id":2,"method":"m"}');
    await s.idle();
    expect(out).toEqual([
      expect.objectContaining({ id: 1, error: expect.objectContaining({ code: -32602 }) }),
      expect.objectContaining({ error: expect.objectContaining({ code: -32700 }) }),
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
  });
});
