/**
 * Opens an `McpClient` over the transport the URL names (http(s): Streamable HTTP, ws(s): the WebSocket binding),
 * asks `server/discover`, and explains failures in one sentence a person can act on.
 */
import { type McpClient as Client, type InputHandlers, McpClient, type TaskJournal } from '@mcp-tasks/client';
import {
  type DiscoverResult,
  type Implementation,
  META,
  TASKS_EXTENSION_ID,
  TransportError,
} from '@mcp-tasks/protocol';
import { HttpClientTransport } from '@mcp-tasks/transport-http/client';
import { WebSocketClientTransport } from '@mcp-tasks/transport-ws/browser';

/** A connected server. */
export interface Connection {
  readonly client: Client;
  readonly url: string;
  readonly kind: 'http' | 'ws';
  readonly discover: DiscoverResult;
  readonly serverInfo: Implementation | undefined;
  readonly tasksExtension: boolean;
  /** Whether task states come from `subscriptions/listen` notifications (else polling at `pollIntervalMs`). */
  readonly listens: boolean;
}

/** What {@link connect} needs. */
export interface ConnectOptions {
  readonly url: string;
  readonly token: string | undefined;
  readonly handlers: InputHandlers;
  readonly journal: TaskJournal;
}

export const CLIENT_INFO: Implementation = { name: 'mcp-tasks-task-console', version: '0.0.0' };

/**
 * Connects and discovers. Over WebSocket, task states stream through `subscriptions/listen` on the one socket;
 * over HTTP the console polls, because a browser keeps at most six HTTP/1.1 connections per origin and a listen
 * stream per task would hold them all. Rejects with an `Error` whose message is readable as it is.
 */
export async function connect(options: ConnectOptions): Promise<Connection> {
  const kind = /^wss?:/i.test(options.url) ? 'ws' : 'http';
  const token = options.token === '' ? undefined : options.token;
  let client: Client | undefined;
  try {
    const transport =
      kind === 'ws'
        ? await WebSocketClientTransport.connect(options.url, token === undefined ? {} : { token })
        : new HttpClientTransport({ url: options.url, ...(token === undefined ? {} : { token }) });
    client = new McpClient({
      transport,
      clientInfo: CLIENT_INFO,
      handlers: options.handlers,
      tasks: { journal: options.journal, listen: kind === 'ws', maxIntervalMs: 5_000 },
    });
    const discover = await client.discover();
    const serverInfo = (discover._meta as Record<string, unknown> | undefined)?.[META.serverInfo] as
      | Implementation
      | undefined;
    const extensions = (discover.capabilities as { extensions?: Record<string, unknown> }).extensions ?? {};
    return {
      client,
      url: options.url,
      kind,
      discover,
      serverInfo,
      tasksExtension: TASKS_EXTENSION_ID in extensions,
      listens: kind === 'ws',
    };
  } catch (error) {
    await client?.close().catch(() => undefined);
    throw new Error(explain(error, options.url, kind), { cause: error });
  }
}

/** One sentence for a failed connection or request. */
export function explain(error: unknown, url: string, kind: 'http' | 'ws'): string {
  // Both transports reject a refused token (401) or origin (403) with an `http_status` TransportError and its status.
  if (error instanceof TransportError) {
    if (error.status === 401)
      return `The server refused the bearer token (401 Unauthorized). Check the token and connect again.`;
    if (error.status === 403)
      return `The server refused this page's origin (403 Forbidden): it must list ${location.origin} in its allowed origins.`;
    if (error.code === 'http_status') return `The server answered HTTP ${error.status ?? '?'} at ${url}.`;
    if (kind === 'ws' && error.code === 'closed')
      return `Cannot open a WebSocket to ${url}: the server is down, or refused the token or this page's origin.`;
    return `Cannot reach ${url}: ${error.message}`;
  }
  if (error instanceof TypeError) return `Cannot reach ${url}: the server is down or does not allow this page (CORS).`;
  return error instanceof Error ? error.message : String(error);
}
