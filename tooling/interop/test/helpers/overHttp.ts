// The Streamable HTTP transport of our client to a started server, on the global fetch or on nodeHttpFetch.
import { nodeHttpFetch } from '@mcp-tasks/transport-http';
import { HttpClientTransport } from '@mcp-tasks/transport-http/client';
import type { Connect } from './ourClient.js';

/** A started HTTP server fixture. */
export interface StartedHttpServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Our transport to `server`; `onNode` runs it on nodeHttpFetch, whose sockets `stop` closes with the server. */
export function httpTransportTo(server: StartedHttpServer, onNode: boolean): Awaited<ReturnType<Connect>> {
  if (!onNode) return { transport: new HttpClientTransport({ url: server.url }), stop: server.close };
  const fetch = nodeHttpFetch();
  return {
    transport: new HttpClientTransport({ url: server.url, fetch }),
    stop: async () => {
      fetch.close();
      await server.close();
    },
  };
}
