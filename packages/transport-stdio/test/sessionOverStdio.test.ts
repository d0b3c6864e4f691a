/** The process is the 2025-era session: server-to-client requests over real stdio, both directions. */
import { PassThrough } from 'node:stream';
import type { MessageHandler, RequestContext, TransportNotification } from '@mcp-tasks/protocol';
import { TransportError } from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StdioClientTransport } from '../src/stdioClientTransport.js';
import { StdioServerTransport } from '../src/stdioServerTransport.js';
import { FAKE_SERVER, RawServer } from './helpers.js';

const servers: RawServer[] = [];
const clients: StdioClientTransport[] = [];
afterEach(async () => {
  await Promise.all([...servers.splice(0).map((s) => s.kill()), ...clients.splice(0).map((c) => c.close())]);
});

function start(env?: Record<string, string>): RawServer {
  const server = new RawServer(env);
  servers.push(server);
  return server;
}

async function spawnClient(maxServerRequests?: number, onUnrouted?: (n: TransportNotification) => void) {
  const client = await StdioClientTransport.spawn({
    command: process.execPath,
    args: [FAKE_SERVER],
    stderr: 'pipe',
    maxServerRequests,
    onUnroutedNotification: onUnrouted,
  });
  client.stderr?.resume();
  clients.push(client);
  return client;
}

describe('StdioServerTransport: the process is the session (real child process)', () => {
  it('L-S22: the client answers a server request on stdin; the response is routed to it by id', async () => {
    const server = start();
    server.send({ jsonrpc: '2.0', id: 1, method: 'askPeer', params: { count: 2 } });
    const first = (await server.next()) as { id: string };
    const second = (await server.next()) as { id: string };
    expect(first).toEqual({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' });
    expect(second.id).toBe('srv-2');
    // Answered out of order, interleaved with a stray response, which is dropped.
    server.send({ jsonrpc: '2.0', id: 'srv-2', error: { code: -32601, message: 'Method not found' } });
    server.send({ jsonrpc: '2.0', id: 'srv-77', result: {} });
    server.send({ jsonrpc: '2.0', id: 'srv-1', result: { roots: [] } });
    expect(await server.next()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        outcomes: [
          { reply: { jsonrpc: '2.0', id: 'srv-1', result: { roots: [] } } },
          { reply: { jsonrpc: '2.0', id: 'srv-2', error: { code: -32601, message: 'Method not found' } } },
        ],
      },
    });
  });

  it('L-S8: a server request unanswered for peerRequestTimeoutMs is cancelled and rejects with timeout', async () => {
    const server = start({ PEER_TIMEOUT_MS: '20' });
    server.send({ jsonrpc: '2.0', id: 1, method: 'askPeer' });
    expect(await server.next()).toMatchObject({ id: 'srv-1', method: 'roots/list' });
    expect(await server.next()).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 'srv-1' } });
    expect(await server.next()).toEqual({ jsonrpc: '2.0', id: 1, result: { outcomes: [{ failed: 'timeout' }] } });
  });

  it('bounds server requests awaiting a response (maxPeerRequests): one more rejects with send_failed', async () => {
    const server = start({ MAX_PEER_REQUESTS: '2' });
    server.send({ jsonrpc: '2.0', id: 1, method: 'askPeer', params: { count: 3 } });
    expect(await server.next()).toMatchObject({ id: 'srv-1' });
    expect(await server.next()).toMatchObject({ id: 'srv-2' });
    server.send({ jsonrpc: '2.0', id: 'srv-1', result: { roots: [] } });
    server.send({ jsonrpc: '2.0', id: 'srv-2', result: { roots: [] } });
    expect(await server.next()).toMatchObject({
      id: 1,
      result: { outcomes: [{ reply: { id: 'srv-1' } }, { reply: { id: 'srv-2' } }, { failed: 'send_failed' }] },
    });
  });

  it('L-S21: EOF on stdin ends the session: closed aborts and pending server requests reject with closed', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const contexts: RequestContext[] = [];
    const handler: MessageHandler = async (message, context) => {
      contexts.push(context);
      return { jsonrpc: '2.0', id: (message as { id: number }).id, result: {} };
    };
    const transport = new StdioServerTransport(handler, { stdin, stdout, onError: () => undefined });
    transport.start();
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"m"}\n');
    await vi.waitFor(() => expect(contexts).toHaveLength(1));
    const session = contexts[0]?.session;
    expect(session).toBe(transport.session);
    const pending = session?.request({ method: 'roots/list' }).catch((error: unknown) => error);
    stdin.end();
    await transport.closed;
    expect(session?.closed.aborted).toBe(true);
    const error = await pending;
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'closed' });
  });
});

describe('StdioClientTransport: answering the server (real child process)', () => {
  it('L-C11: setPeerHandler answers server requests; unrelated notifications reach onNotification and the observer', async () => {
    const unrouted: TransportNotification[] = [];
    const client = await spawnClient(undefined, (n) => unrouted.push(n));
    const notifications: TransportNotification[] = [];
    client.setPeerHandler({
      onRequest: async (request) => ({ jsonrpc: '2.0', id: request.id, result: { roots: [{ uri: 'file:///c' }] } }),
      onNotification: (n) => notifications.push(n),
    });
    const asked = await client.request({ jsonrpc: '2.0', id: 'a', method: 'askPeer' });
    expect(asked).toMatchObject({ result: { outcomes: [{ reply: { result: { roots: [{ uri: 'file:///c' }] } } }] } });
    const told = await client.request({ jsonrpc: '2.0', id: 'b', method: 'sessionNotify' });
    const updated = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///a' } };
    expect(notifications).toEqual([updated]);
    expect(unrouted).toEqual([updated]);
    expect(told).toMatchObject({ result: { sessionId: expect.any(String) } });
  });

  it('L-C11: bounds concurrent server requests (maxServerRequests): one more is answered -32600', async () => {
    const client = await spawnClient(2);
    const parked: Array<() => void> = [];
    client.setPeerHandler({
      onRequest: (request) =>
        new Promise((resolve) => parked.push(() => resolve({ jsonrpc: '2.0', id: request.id, result: {} }))),
      onNotification: () => undefined,
    });
    const asked = client.request({ jsonrpc: '2.0', id: 'a', method: 'askPeer', params: { count: 3 } });
    await vi.waitFor(() => expect(parked).toHaveLength(2));
    for (const answer of parked) answer();
    expect(await asked).toMatchObject({
      result: {
        outcomes: [
          { reply: { result: {} } },
          { reply: { result: {} } },
          { reply: { error: { code: -32600, data: { limit: 'maxServerRequests', max: 2 } } } },
        ],
      },
    });
  });
});
