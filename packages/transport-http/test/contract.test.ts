/** The published transport contract, run against Streamable HTTP on 127.0.0.1:0. */
import { LATEST_PROTOCOL_VERSION, META } from '@mcp-tasks/protocol';
import { describeTransportContract, MessageQueue, type RawChannel } from '@mcp-tasks/transport-kit/testing';
import { HttpClientTransport } from '../src/client.js';
import { nodeHttpFetch } from '../src/nodeHttpFetch.js';
import { listen } from '../src/server.js';

// No dropServer: every HTTP request is its own exchange, so the client has no connection whose loss it could see.
// Run twice: on the global fetch (the default) and on nodeHttpFetch.
for (const fetchName of ['global fetch', 'nodeHttpFetch'] as const) {
  describeTransportContract(`Streamable HTTP (${fetchName})`, {
    start: async (handler) => {
      const server = await listen(handler, { port: 0, host: '127.0.0.1' });
      const viaNode = fetchName === 'nodeHttpFetch' ? nodeHttpFetch() : undefined;
      const client = new HttpClientTransport({ url: server.url, fetch: viaNode });
      return {
        client,
        openRaw: async () => rawHttp(server.url),
        close: async () => {
          await client.close();
          viaNode?.close();
          await server.close();
        },
      };
    },
  });
}

/** Each frame is its own POST; a well-formed request gets the routing headers the server requires of it. */
function rawHttp(url: URL): RawChannel {
  const queue = new MessageQueue();
  return {
    async send(text) {
      const headers: Record<string, string> = {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      };
      try {
        const message = JSON.parse(text) as { method?: unknown; params?: { _meta?: Record<string, unknown> } };
        if (typeof message.method === 'string') headers['mcp-method'] = message.method;
        const version = message.params?._meta?.[META.protocolVersion];
        headers['mcp-protocol-version'] = typeof version === 'string' ? version : LATEST_PROTOCOL_VERSION;
      } catch {
        // Not JSON: sent as is, which is the point.
      }
      const res = await fetch(url, { method: 'POST', headers, body: text });
      const body = await res.text();
      if (body !== '') queue.push(JSON.parse(body));
    },
    next: () => queue.next(),
    close: async () => {},
  };
}
