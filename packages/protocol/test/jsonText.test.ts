import { describe, expect, it } from 'vitest';
import { encodeMessage, jsonRpcError, jsonRpcResult, MAX_SHARED_JSON_TEXT, shareJsonText } from '../src/index.js';

const task = () => ({
  resultType: 'complete',
  taskId: 't-"1"\u2028',
  status: 'working',
  createdAt: '2026-11-28T00:00:00.000Z',
  ttlMs: null,
  _meta: Object.freeze({ 'io.modelcontextprotocol/serverInfo': Object.freeze({ name: 'ü', version: '1' }) }),
});

describe('encodeMessage', () => {
  it('gives JSON.stringify byte for byte, with a shared result and without, for string and number ids', () => {
    const shared = shareJsonText(task());
    for (const id of [7, 0, -3, 'req-"x"\n', '']) {
      const response = jsonRpcResult(id, shared);
      expect(encodeMessage(response)).toBe(JSON.stringify(response));
      expect(encodeMessage(jsonRpcResult(id, task()))).toBe(JSON.stringify(response));
    }
  });

  it('keeps the text of the first response, and writes it whatever the value is now', () => {
    // The contract says a shared value never changes; this shows the text is reused rather than made again.
    const inner = { note: 'before' };
    const shared = shareJsonText({ resultType: 'complete', inner });
    inner.note = 'first';
    expect(encodeMessage(jsonRpcResult(1, shared))).toContain('"note":"first"');
    inner.note = 'after';
    expect(encodeMessage(jsonRpcResult(2, shared))).toBe(
      '{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","inner":{"note":"first"}}}',
    );
  });

  it('serializes anything else as JSON.stringify does: other shapes, key orders, errors, notifications', () => {
    const shared = shareJsonText(task());
    const messages: object[] = [
      { jsonrpc: '2.0', id: 1, result: shared, extra: true },
      { id: 1, jsonrpc: '2.0', result: shared },
      { jsonrpc: '1.0', id: 1, result: shared },
      { jsonrpc: '2.0', id: null, result: shared },
      { jsonrpc: '2.0', id: 1, result: shared, toJSON: () => ({ replaced: true }) },
      Object.assign(Object.create({ inherited: 1 }), { jsonrpc: '2.0', id: 1, result: shared }),
      jsonRpcError(3, { code: -32602, message: 'Invalid params' }),
      { jsonrpc: '2.0', method: 'notifications/tasks', params: shared },
      { jsonrpc: '2.0', id: 2, result: { resultType: 'complete' } },
    ];
    for (const message of messages) expect(encodeMessage(message)).toBe(JSON.stringify(message));
  });
});

describe('shareJsonText', () => {
  it('freezes the value and returns it', () => {
    const value = task();
    expect(shareJsonText(value)).toBe(value);
    expect(Object.isFrozen(value)).toBe(true);
  });

  it('keeps no text past MAX_SHARED_JSON_TEXT: such a result is serialized anew every time, once per response', () => {
    const inner = { n: 1 };
    const big = shareJsonText({ resultType: 'complete', blob: 'x'.repeat(MAX_SHARED_JSON_TEXT), inner });
    expect(encodeMessage(jsonRpcResult(1, big))).toBe(JSON.stringify(jsonRpcResult(1, big)));
    // Made anew: a change (which the contract forbids) shows, because no text was kept.
    inner.n = 2;
    expect(encodeMessage(jsonRpcResult(1, big))).toContain('"n":2');
  });
});
