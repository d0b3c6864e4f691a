import type { TransportNotification, TransportRequest } from '@mcp-tasks/protocol';
import { TransportError } from '@mcp-tasks/protocol';
import { describe, expect, it } from 'vitest';
import { PendingRequests } from '../src/pendingRequests.js';

const SUB = 'io.modelcontextprotocol/subscriptionId';

function setup() {
  const sent: (TransportRequest | TransportNotification)[] = [];
  const unrouted: TransportNotification[] = [];
  const pending = new PendingRequests({
    send: (m) => void sent.push(m),
    onUnroutedNotification: (n) => unrouted.push(n),
  });
  return { pending, sent, unrouted };
}

const req = (id: string | number, method = 'm', params?: TransportRequest['params']): TransportRequest => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params ? { params } : {}),
});

describe('PendingRequests', () => {
  it('correlates responses by id regardless of order, keeping 1 and "1" apart', async () => {
    const { pending, sent } = setup();
    const a = pending.request(req(1));
    const b = pending.request(req('1'));
    expect(sent).toHaveLength(2);
    pending.receive({ jsonrpc: '2.0', id: '1', result: { v: 'string' } });
    pending.receive({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'nope' } });
    await expect(b).resolves.toEqual({ jsonrpc: '2.0', id: '1', result: { v: 'string' } });
    await expect(a).resolves.toMatchObject({ error: { code: -32601 } });
    expect(pending.size).toBe(0);
  });

  it('routes progress by progressToken and listen notifications by subscriptionId, in order', async () => {
    const { pending, unrouted } = setup();
    const got: Record<string, string[]> = { call: [], listen: [] };
    const call = pending.request(req(1, 'tools/call', { _meta: { progressToken: 'tok' } }), {
      onNotification: (n) => got.call?.push(n.method),
    });
    const listen = pending.request(req(2, 'subscriptions/listen'), {
      onNotification: (n) => got.listen?.push(n.method),
    });
    pending.receive({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { [SUB]: 2 } },
    });
    pending.receive({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'tok', progress: 1 },
    });
    pending.receive({ jsonrpc: '2.0', method: 'notifications/tasks', params: { _meta: { [SUB]: 2 } } });
    pending.receive({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
    pending.receive({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'other', progress: 1 },
    });
    pending.receive({ jsonrpc: '2.0', id: 1, result: {} });
    pending.receive({ jsonrpc: '2.0', id: 2, result: { resultType: 'complete' } });
    await Promise.all([call, listen]);
    expect(got).toEqual({
      call: ['notifications/progress'],
      listen: ['notifications/subscriptions/acknowledged', 'notifications/tasks'],
    });
    expect(unrouted.map((n) => n.method)).toEqual(['notifications/message', 'notifications/progress']);
  });

  it('ends a listen when the server sends notifications/cancelled for its id', async () => {
    const { pending } = setup();
    const seen: string[] = [];
    const listen = pending.request(req('L', 'subscriptions/listen'), { onNotification: (n) => seen.push(n.method) });
    pending.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'L' } });
    await expect(listen).resolves.toEqual({
      jsonrpc: '2.0',
      id: 'L',
      result: { resultType: 'complete', _meta: { [SUB]: 'L' } },
    });
    expect(seen).toEqual(['notifications/cancelled']);
    // A late listen result after the cancel is ignored.
    expect(pending.receive({ jsonrpc: '2.0', id: 'L', result: {} })).toBe(true);
  });

  it('on abort sends notifications/cancelled with the request id, rejects with the reason and ignores a late response', async () => {
    const { pending, sent } = setup();
    const controller = new AbortController();
    const p = pending.request(req(9), { signal: controller.signal });
    const reason = new Error('user gave up');
    controller.abort(reason);
    await expect(p).rejects.toBe(reason);
    expect(sent[1]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 9, reason: 'user gave up' },
    });
    expect(pending.receive({ jsonrpc: '2.0', id: 9, result: {} })).toBe(true);
    expect(pending.size).toBe(0);
  });

  it('rejects without sending when the signal is already aborted', async () => {
    const { pending, sent } = setup();
    await expect(pending.request(req(1), { signal: AbortSignal.abort() })).rejects.toBeDefined();
    expect(sent).toEqual([]);
  });

  it('failAll rejects pending and later requests with the typed error', async () => {
    const { pending } = setup();
    const p = pending.request(req(1));
    pending.failAll(new TransportError('closed', 'gone'));
    await expect(p).rejects.toMatchObject({ name: 'TransportError', code: 'closed' });
    await expect(pending.request(req(2))).rejects.toMatchObject({ code: 'closed' });
  });

  it('fails a request with send_failed when the channel cannot send', async () => {
    const pending = new PendingRequests({
      send: () => {
        throw new Error('EPIPE');
      },
    });
    await expect(pending.request(req(1))).rejects.toMatchObject({ code: 'send_failed' });
    expect(pending.size).toBe(0);
  });

  it('reports unroutable shapes (server requests, non-objects) as false', () => {
    const { pending } = setup();
    expect(pending.receive({ jsonrpc: '2.0', id: 1, method: 'sampling/createMessage' })).toBe(false);
    expect(pending.receive('x')).toBe(false);
    expect(pending.receive({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })).toBe(false);
  });

  it('survives a throwing onNotification callback', async () => {
    const { pending } = setup();
    const p = pending.request(req(1, 'subscriptions/listen'), {
      onNotification: () => {
        throw new Error('callback bug');
      },
    });
    pending.receive({ jsonrpc: '2.0', method: 'x', params: { _meta: { [SUB]: 1 } } });
    pending.receive({ jsonrpc: '2.0', id: 1, result: {} });
    await expect(p).resolves.toMatchObject({ id: 1 });
  });
});
