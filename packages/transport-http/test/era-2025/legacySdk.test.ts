/**
 * The client side of a 2025-era session against a server nobody here wrote: the official SDK v1 McpServer behind
 * its StreamableHTTPServerTransport (stateful, random session ids). Rule ids from LEGACY-CHECKLIST (L-C*).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClientPeerHandler, TransportNotification, TransportRequest } from '@mcp-tasks/protocol';
import { TransportError } from '@mcp-tasks/protocol';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type EventStore, StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ElicitResultSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpClientTransport } from '../../src/client.js';

interface Seen {
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
}

interface SdkFixture {
  readonly url: string;
  readonly seen: Seen[];
  readonly closedSessions: string[];
  readonly transports: Map<string, StreamableHTTPServerTransport>;
  readonly servers: Map<string, McpServer>;
  readonly http: Server;
}

let fixtures: SdkFixture[] = [];
let clients: HttpClientTransport[] = [];
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const f of fixtures) {
    await Promise.all([...f.transports.values()].map((t) => t.close()));
    f.http.closeAllConnections();
    await new Promise<void>((resolve) => f.http.close(() => resolve()));
  }
  fixtures = [];
  clients = [];
});

/**
 * An event store that replays in the order it stored. (The SDK's example store orders ids that share a millisecond by
 * a random suffix, so it sometimes skips a response stored right after the priming event.)
 */
class OrderedEventStore implements EventStore {
  readonly #events: { id: string; streamId: string; message: JSONRPCMessage }[] = [];

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${streamId}:${this.#events.length}`;
    this.#events.push({ id, streamId, message });
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.#events.find((e) => e.id === eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const at = this.#events.findIndex((e) => e.id === lastEventId);
    const streamId = this.#events[at]?.streamId ?? '';
    for (const event of this.#events.slice(at + 1)) {
      if (event.streamId === streamId) await send(event.id, event.message);
    }
    return streamId;
  }
}

/** The SDK server: `ask` elicits on its own POST stream; `poll` closes its stream and answers on resumption. */
function sdkMcpServer(): McpServer {
  const mcp = new McpServer({ name: 'sdk-v1', version: '1.0.0' }, { capabilities: { logging: {} } });
  mcp.registerTool('ask', { description: 'Asks the user for a name' }, async (extra) => {
    try {
      const answer = await extra.sendRequest(
        {
          method: 'elicitation/create',
          params: {
            message: 'Your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
          },
        },
        ElicitResultSchema,
      );
      return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)}` }] };
    } catch (error) {
      return { content: [{ type: 'text', text: `failed: ${(error as Error).message}` }], isError: true };
    }
  });
  mcp.registerTool('poll', { description: 'Closes its SSE stream, then answers' }, async (extra) => {
    extra.closeSSEStream?.();
    return { content: [{ type: 'text', text: 'after the reconnect' }] };
  });
  return mcp;
}

async function sdkFixture(options: { resumable?: boolean } = {}): Promise<SdkFixture> {
  const seen: Seen[] = [];
  const closedSessions: string[] = [];
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const servers = new Map<string, McpServer>();
  const http = createServer((req, res) => {
    seen.push({ method: req.method ?? '', headers: req.headers });
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? transports.get(id) : undefined;
    if (typeof id === 'string' && known === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
      return;
    }
    if (known !== undefined) {
      void known.handleRequest(req, res);
      return;
    }
    const mcp = sdkMcpServer();
    const eventStore = options.resumable ? new OrderedEventStore() : undefined;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      ...(eventStore ? { eventStore, retryInterval: 20 } : {}),
      onsessioninitialized: (sid) => {
        transports.set(sid, transport);
        servers.set(sid, mcp);
      },
      onsessionclosed: (sid) => {
        closedSessions.push(sid);
        transports.delete(sid);
      },
    });
    void mcp.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const fixture = { url: `http://127.0.0.1:${port}/mcp`, seen, closedSessions, transports, servers, http };
  fixtures.push(fixture);
  return fixture;
}

function client(url: string): HttpClientTransport {
  const transport = new HttpClientTransport({ url, reconnect: { initialDelayMs: 20 } });
  clients.push(transport);
  return transport;
}

const initialize = (id: number | string = 1): TransportRequest => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: { elicitation: { form: {} }, sampling: {} },
    clientInfo: { name: 'mcp-tasks-test', version: '1.0.0' },
  },
});
const initialized: TransportNotification = { jsonrpc: '2.0', method: 'notifications/initialized' };
const call = (id: number, name: string): TransportRequest => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {} },
});

/** A peer handler that records what it gets and answers elicitations and sampling. */
function recordingHandler() {
  const requests: TransportRequest[] = [];
  const notifications: TransportNotification[] = [];
  const handler: ClientPeerHandler = {
    onRequest: async (request) => {
      requests.push(request);
      if (request.method === 'elicitation/create') {
        return { jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { name: 'Ada' } } };
      }
      if (request.method === 'sampling/createMessage') {
        const result = { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'test' };
        return { jsonrpc: '2.0', id: request.id, result };
      }
      return { jsonrpc: '2.0', id: request.id, result: {} };
    },
    onNotification: (notification) => {
      notifications.push(notification);
    },
  };
  return { handler, requests, notifications };
}

async function open(fixture: SdkFixture, handler?: ClientPeerHandler) {
  const transport = client(fixture.url);
  if (handler !== undefined) transport.setPeerHandler(handler);
  const response = await transport.request(initialize());
  await transport.notify(initialized);
  return { transport, response };
}

describe('HttpClientTransport in a 2025-era session (SDK v1 server)', () => {
  it('L-C7/L-C8: keeps the session id and negotiated version and sends them, without 2026 headers', async () => {
    const fixture = await sdkFixture();
    const { transport, response } = await open(fixture);
    expect(response).toMatchObject({
      id: 1,
      result: { protocolVersion: '2025-11-25', serverInfo: { name: 'sdk-v1' } },
    });
    const sessionId = transport.sessionId;
    expect(sessionId).toBe([...fixture.transports.keys()][0]);
    const listed = await transport.request({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(listed).toMatchObject({ id: 2, result: { tools: [{ name: 'ask' }, { name: 'poll' }] } });
    const [first, ...later] = fixture.seen.filter((s) => s.method === 'POST');
    expect(first?.headers['mcp-session-id']).toBeUndefined();
    expect(first?.headers['mcp-protocol-version']).toBeUndefined();
    expect(later).toHaveLength(2);
    for (const { headers } of later) {
      expect(headers['mcp-session-id']).toBe(sessionId);
      expect(headers['mcp-protocol-version']).toBe('2025-11-25');
      expect(headers.accept).toBe('application/json, text/event-stream');
    }
    for (const { headers } of fixture.seen) {
      expect(headers['mcp-method']).toBeUndefined();
      expect(headers['mcp-name']).toBeUndefined();
    }
  });

  it('L-C10/L-C11: a server request on the POST stream goes to the peer handler and its answer is POSTed back', async () => {
    const fixture = await sdkFixture();
    const peer = recordingHandler();
    const { transport } = await open(fixture, peer.handler);
    const response = await transport.request(call(2, 'ask'));
    expect(response).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: 'hello Ada' }] } });
    expect(peer.requests).toMatchObject([{ method: 'elicitation/create', params: { message: 'Your name?' } }]);
  });

  it('L-C11: without a peer handler a server request is answered -32601', async () => {
    const fixture = await sdkFixture();
    const { transport } = await open(fixture);
    const response = await transport.request(call(2, 'ask'));
    expect(response).toMatchObject({ id: 2, result: { isError: true } });
    expect(JSON.stringify(response)).toMatch(/-32601|Method not found/);
  });

  it('L-C10: opens the GET stream after initialized; server requests and notifications on it reach the handler', async () => {
    const fixture = await sdkFixture();
    const peer = recordingHandler();
    const { transport } = await open(fixture, peer.handler);
    await vi.waitFor(() => {
      const get = fixture.seen.find((s) => s.method === 'GET');
      expect(get?.headers['mcp-session-id']).toBe(transport.sessionId);
      expect(get?.headers['mcp-protocol-version']).toBe('2025-11-25');
      expect(get?.headers.accept).toBe('text/event-stream');
    });
    const mcp = fixture.servers.get(transport.sessionId ?? '') as McpServer;
    // The SDK drops messages while it has no GET stream registered: repeat until one arrives.
    await vi.waitFor(
      async () => {
        mcp.sendToolListChanged();
        expect(peer.notifications.some((n) => n.method === 'notifications/tools/list_changed')).toBe(true);
      },
      { interval: 50 },
    );
    const sampled = await mcp.server.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
      maxTokens: 5,
    });
    expect(sampled).toMatchObject({ content: { text: 'sampled' }, model: 'test' });
    expect(peer.requests.map((r) => r.method)).toEqual(['sampling/createMessage']);
  });

  it('L-C9: a POST stream the server closes before the result is resumed with GET + Last-Event-ID', async () => {
    const fixture = await sdkFixture({ resumable: true });
    const { transport } = await open(fixture);
    const response = await transport.request(call(2, 'poll'));
    expect(response).toMatchObject({ id: 2, result: { content: [{ text: 'after the reconnect' }] } });
    const resumed = fixture.seen.find((s) => s.method === 'GET' && s.headers['last-event-id'] !== undefined);
    expect(resumed?.headers['mcp-session-id']).toBe(transport.sessionId);
  });

  it('L-C7: close() DELETEs the session', async () => {
    const fixture = await sdkFixture();
    const { transport } = await open(fixture, recordingHandler().handler);
    const sessionId = transport.sessionId;
    await transport.close();
    expect(fixture.closedSessions).toEqual([sessionId]);
    const deleted = fixture.seen.find((s) => s.method === 'DELETE');
    expect(deleted?.headers['mcp-session-id']).toBe(sessionId);
    expect(deleted?.headers['mcp-protocol-version']).toBe('2025-11-25');
  });

  it('L-C7: a 404 for the session rejects with http_status 404, forgets it, and a new initialize works', async () => {
    const fixture = await sdkFixture();
    const { transport } = await open(fixture);
    const old = transport.sessionId as string;
    await fixture.transports.get(old)?.close();
    fixture.transports.delete(old);
    const error = await transport.request({ jsonrpc: '2.0', id: 2, method: 'tools/list' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'http_status', status: 404 });
    expect(transport.sessionId).toBeUndefined();
    await transport.request(initialize(3));
    expect(transport.sessionId).toBeDefined();
    expect(transport.sessionId).not.toBe(old);
    const reinit = fixture.seen.filter((s) => s.method === 'POST').at(-1);
    expect(reinit?.headers['mcp-session-id']).toBeUndefined();
  });
});
