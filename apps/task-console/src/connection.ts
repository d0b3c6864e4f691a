/**
 * Opens an `McpClient` over the transport the URL names (http(s): Streamable HTTP, ws(s): the WebSocket binding),
 * negotiates the protocol era (`server/discover`, or `initialize` with a 2025-era server), and explains failures in
 * one sentence a person can act on.
 */
import {
  type McpClient as Client,
  type InputHandlers,
  McpClient,
  type ServerConnection,
  type TaskJournal,
} from '@mcp-tasks/client';
import { type Implementation, META, TASKS_EXTENSION_ID, TransportError } from '@mcp-tasks/protocol';
import { HttpClientTransport } from '@mcp-tasks/transport-http/client';
import { WebSocketClientTransport } from '@mcp-tasks/transport-ws/browser';

/** A connected server. */
export interface Connection {
  readonly client: Client;
  readonly url: string;
  readonly kind: 'http' | 'ws';
  /** `modern`: MCP 2026-07-28; `legacy`: a 2025-era session opened with `initialize`. */
  readonly era: ServerConnection['era'];
  /** The versions the server speaks: its `server/discover` list, or (2025 era) the one `initialize` agreed on. */
  readonly supportedVersions: readonly string[];
  readonly serverInfo: Implementation | undefined;
  readonly tasksExtension: boolean;
  /** 2025 era: the server declared the experimental 2025-11-25 tasks for `tools/call`. */
  readonly legacyTasks: boolean;
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
 * Connects and negotiates the era: a 2026-07-28 server answers `server/discover`, a 2025-era one gets an
 * `initialize` session. Over WebSocket to a 2026-07-28 server, task states stream through `subscriptions/listen` on
 * the one socket; otherwise the console polls (over HTTP because a browser keeps at most six HTTP/1.1 connections
 * per origin and a listen stream per task would hold them all; 2025-era tasks have no listen stream). Rejects with
 * an `Error` whose message is readable as it is.
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
    const negotiated = await client.connect();
    return { client, url: options.url, kind, ...(await describe(client, negotiated, kind)) };
  } catch (error) {
    await client?.close().catch(() => undefined);
    const blocked =
      kind === 'http' &&
      (error instanceof TypeError || (error instanceof TransportError && error.code === 'send_failed'));
    const reachable = blocked ? await answersAtAll(options.url) : undefined;
    throw new Error(explain(error, options.url, kind, reachable), { cause: error });
  }
}

type Described = Omit<Connection, 'client' | 'url' | 'kind'>;

/** What the console shows and needs of the negotiated connection, in either era. */
async function describe(client: Client, negotiated: ServerConnection, kind: 'http' | 'ws'): Promise<Described> {
  if (negotiated.era === 'legacy') {
    const { initialize } = negotiated;
    return {
      era: 'legacy',
      supportedVersions: [initialize.protocolVersion],
      serverInfo: initialize.serverInfo,
      tasksExtension: false,
      legacyTasks: initialize.capabilities.tasks?.requests?.tools?.call !== undefined,
      listens: false,
    };
  }
  const discover = negotiated.discover ?? (await client.discover());
  const serverInfo = (discover._meta as Record<string, unknown> | undefined)?.[META.serverInfo] as
    | Implementation
    | undefined;
  const extensions = (discover.capabilities as { extensions?: Record<string, unknown> }).extensions ?? {};
  return {
    era: 'modern',
    supportedVersions: discover.supportedVersions,
    serverInfo,
    tasksExtension: TASKS_EXTENSION_ID in extensions,
    legacyTasks: false,
    listens: kind === 'ws',
  };
}

/**
 * Whether anything answers HTTP at `url`, CORS or not: a `no-cors` request resolves with an opaque response when a
 * server answers, and rejects when nothing does. A browser hides why a cross-origin request failed; this tells
 * "refused this page" from "not there".
 */
async function answersAtAll(url: string): Promise<boolean> {
  try {
    // HEAD: a GET may open a server's event stream, and a body the page may not read is not needed.
    await fetch(url, { method: 'HEAD', mode: 'no-cors', cache: 'no-store', signal: AbortSignal.timeout(5000) });
    return true;
  } catch {
    return false;
  }
}

/**
 * One sentence for a failed connection or request. `reachable` (for a request the browser could not send or
 * read) says whether the server answered a plain no-CORS request.
 */
export function explain(error: unknown, url: string, kind: 'http' | 'ws', reachable?: boolean): string {
  if (reachable === true)
    return `The server at ${url} answers but does not let this page in: it sent no CORS headers for ${location.origin}. Its Origin policy refuses this page (allow ${location.origin} there), or nothing at this path takes MCP calls (check the path).`;
  if (reachable === false)
    return `Cannot reach ${url}: nothing answers there (the server is down, or the host or port is wrong).`;
  // Both transports reject a refused token (401) or origin (403) with an `http_status` TransportError and its status.
  if (error instanceof TransportError) {
    if (error.status === 401)
      return `The server refused the bearer token (401 Unauthorized). Check the token and connect again.`;
    if (error.status === 403)
      return `The server refused this page's origin (403 Forbidden): it must list ${location.origin} in its allowed origins.`;
    if (error.status === 404)
      return `No MCP endpoint at ${url} (404 Not Found): check the path (MCP servers usually serve …/mcp).`;
    if (error.code === 'http_status') return `The server answered HTTP ${error.status ?? '?'} at ${url}.`;
    if (kind === 'ws' && error.code === 'closed')
      return `Cannot open a WebSocket to ${url}: the server is down, or refused the token or this page's origin.`;
    return `Cannot reach ${url}: ${error.message}`;
  }
  if (error instanceof TypeError) return `Cannot reach ${url}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
