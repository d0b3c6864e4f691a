/** The in-memory pair as a 2025-era session: what the server runtime sends outside the client's requests. */
import type { MessageHandler, TransportNotification, TransportResponse } from '@mcp-tasks/protocol';
import { TransportError } from '@mcp-tasks/protocol';
import { describe, expect, it, vi } from 'vitest';
import { linkedPair } from '../../src/testing/index.js';

/** A fake runtime: on a request it asks the client for its roots and answers with what the client replied. */
const rootsRuntime: MessageHandler = async (message, context) => {
  const id = (message as { id: number }).id;
  const reply = await context.request?.({ method: 'roots/list' });
  return { jsonrpc: '2.0', id, result: { reply } } as TransportResponse;
};

describe('linkedPair as a 2025-era session', () => {
  it('L-S22 L-C11: context.request reaches the peer handler; its response comes back as a JSON copy', async () => {
    const pair = linkedPair(rootsRuntime);
    const roots = [{ uri: 'file:///pair' }];
    pair.setPeerHandler({
      onRequest: async (request) => ({ jsonrpc: '2.0', id: request.id, result: { roots } }),
      onNotification: () => undefined,
    });
    const response = await pair.request({ jsonrpc: '2.0', id: 1, method: 'tools/call' });
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { reply: { jsonrpc: '2.0', id: 'srv-1', result: { roots } } },
    });
    await pair.close();
  });

  it('L-C11: without a peer handler the server request is answered -32601', async () => {
    const pair = linkedPair(rootsRuntime);
    const response = await pair.request({ jsonrpc: '2.0', id: 1, method: 'tools/call' });
    expect(response).toMatchObject({ result: { reply: { error: { code: -32601 } } } });
    await pair.close();
  });

  it('session.notify reaches onNotification; close ends the session and rejects what it still awaits', async () => {
    const pair = linkedPair(async () => undefined);
    const notifications: TransportNotification[] = [];
    pair.setPeerHandler({
      onRequest: () => new Promise(() => undefined),
      onNotification: (n) => notifications.push(n),
    });
    pair.session.notify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await vi.waitFor(() =>
      expect(notifications).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]),
    );
    const pending = pair.session.request({ method: 'sampling/createMessage', params: {} });
    await pair.close();
    await expect(pending).rejects.toBeInstanceOf(TransportError);
    await expect(pending).rejects.toMatchObject({ code: 'closed' });
    expect(pair.session.closed.aborted).toBe(true);
  });
});
