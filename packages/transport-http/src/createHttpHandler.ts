import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MessageHandler, ServerEndpoint } from '@mcp-tasks/protocol';
import { HttpBinding } from './httpBinding.js';
import type { HttpHandlerOptions } from './httpHandlerOptions.js';
import { NodeHttpFront } from './nodeHttpFront.js';

/**
 * A node:http request listener that is also express 5 middleware (`app.use('/mcp', handler)`): `next` is never
 * called, every request that reaches it is answered.
 */
export interface HttpHandler {
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void;
  /**
   * Ends every 2025-era session (their GET streams end, pending server-to-client requests reject with
   * `TransportError('closed')`, later requests naming them get 404) and refuses new ones. 2026-07-28 requests are
   * still served. Idempotent.
   */
  close(): void;
}

/**
 * Creates the Streamable HTTP server endpoint (MCP 2026-07-28) for node:http and express 5, around a server
 * runtime. Pass the runtime itself (an `McpServer` is a {@link ServerEndpoint}) so `Mcp-Param-*` headers are
 * checked against its tools' `x-mcp-header` annotations; a bare {@link MessageHandler} serves runtimes without them.
 *
 * The same rules as `createFetchHandler`, on node's own request and response objects (no per-request conversion
 * to fetch objects). Per request, in order: a single `Host` header (400); POST only (else 405 with `Allow: POST`);
 * `Host`/`Origin` check (403); `authenticate` (401); body read with a size limit (413, sent once the rest of the body
 * was drained so the client reads it) and a time limit (408), or taken from `req.body` when `express.json()` already
 * parsed it; strict UTF-8 and JSON (400, -32700); nesting depth (400, -32602); for requests, the routing and `Mcp-Param-*` headers (400, -32020, see
 * `validateRequestHeaders`); then the runtime. Its answer is written as JSON with the status of its error code
 * (see `httpStatusForError`), as an SSE stream when it sent notifications first, or as 202 for an accepted
 * notification. Closing the response early aborts `context.signal`. Errors never throw out of the handler.
 *
 * 2025-era clients (a message without the 2026-07-28 `_meta` and without a 2026 `MCP-Protocol-Version`) get
 * sessions unless `sessions: false`: an `initialize` without `Mcp-Session-Id` opens one, kept and named in the
 * response's `Mcp-Session-Id` only when the runtime answers with a result; later messages naming it reach the
 * runtime with `context.session` and `context.request` (no 2026 header checks, errors on HTTP 200, a dropped
 * connection is not a cancel, `notifications/cancelled` is); POSTed notifications and responses get 202; GET with
 * the id opens the session's SSE stream (one at a time, else 409); DELETE ends it (204); an unknown or ended id
 * gets 404. `close()` ends every session. 2026-07-28 messages ignore `Mcp-Session-Id`.
 */
export function createHttpHandler(
  endpoint: ServerEndpoint | MessageHandler,
  options: HttpHandlerOptions = {},
): HttpHandler {
  const front = new NodeHttpFront(new HttpBinding(endpoint, options), options);
  return Object.assign(front.handle.bind(front), { close: () => front.close() });
}
