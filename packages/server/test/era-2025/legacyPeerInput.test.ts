import type { TransportResponse } from '@mcp-tasks/protocol';
import { describe, expect, it } from 'vitest';
import { askPeer, PeerRequestError, type PeerSend, peerResult } from '../../src/era-2025/legacyPeerInput.js';
import { peerAsk } from '../../src/era-2025/legacyTaskEra.js';

const answering =
  (response: Omit<TransportResponse, 'jsonrpc' | 'id'>): PeerSend =>
  async () =>
    ({ jsonrpc: '2.0', id: 1, ...response }) as TransportResponse;

const roots = { method: 'roots/list', params: {} } as const;

describe('server-to-client requests in a 2025-era session', () => {
  it('an error answer rejects with PeerRequestError carrying the client code and data', async () => {
    const send = answering({ error: { code: -32603, message: 'no', data: { why: 'busy' } } });
    const failure = await peerResult(send, roots).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PeerRequestError);
    expect(failure).toMatchObject({ code: -32603, data: { why: 'busy' } });
    expect((failure as Error).message).toBe('The client answered roots/list with error -32603: no');
    // The experimental task routes reject the same way.
    await expect(peerAsk(send)(roots, new AbortController().signal)).rejects.toBeInstanceOf(PeerRequestError);
  });

  it('peerAsk hands back the raw result; askPeer validates it against the method', async () => {
    const send = answering({ result: { roots: 'not a list' } });
    await expect(peerAsk(send)(roots, new AbortController().signal)).resolves.toEqual({ roots: 'not a list' });
    const failure = await askPeer(send, roots).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PeerRequestError);
    expect(failure).toMatchObject({ code: undefined });
    expect((failure as Error).message).toMatch(/^The client's answer to roots\/list is not a valid result/);
  });

  it('passes the abort signal to the transport', async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const send: PeerSend = async (_message, options) => {
      seen = options?.signal;
      return { jsonrpc: '2.0', id: 1, result: { roots: [] } };
    };
    await expect(askPeer(send, roots, controller.signal)).resolves.toEqual({ roots: [] });
    expect(seen).toBe(controller.signal);
  });
});
