import { ErrorCode, type MessageHandler, type ServerEndpoint } from '@mcp-tasks/protocol';
import type { HeaderLookup } from './checkParamHeaders.js';
import type { OpenResponse } from './exchange.js';
import { FetchResponseSink, toResponse } from './fetchResponseSink.js';
import {
  type AuthenticateRequest,
  type AuthenticationResult,
  HttpBinding,
  type HttpBindingOptions,
} from './httpBinding.js';
import { errorReply, type HttpReply } from './httpReply.js';
import { readRequestBody } from './readRequestBody.js';
import type { AuthenticatedPrincipal } from './scopeCheck.js';

/** Options of {@link createFetchHandler}. */
export interface FetchHandlerOptions extends HttpBindingOptions {
  /**
   * Turns a request into the principal its tasks are bound to (e.g. the subject of a verified bearer token). A
   * `null`/`undefined` result rejects the request with 401 and `WWW-Authenticate`; a thrown error gives 500. Runs
   * before the body is read. Without it requests are unauthenticated (`principal` undefined).
   */
  readonly authenticate?: AuthenticateRequest<Request>;
}

/** A fetch-API request handler: what Bun, Deno, Cloudflare Workers and Hono (`c.req.raw`) hand their routes. */
export interface FetchHandler {
  (request: Request): Promise<Response>;
  /**
   * Ends every 2025-era session (their GET streams end, pending server-to-client requests reject with
   * `TransportError('closed')`, later requests naming them get 404) and refuses new ones. 2026-07-28 requests are
   * still served. Idempotent.
   */
  close(): void;
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/**
 * Creates the Streamable HTTP server endpoint (MCP 2026-07-28) on the fetch API alone: it runs wherever `Request`,
 * `Response` and `ReadableStream` exist (Node 20+, Bun, Deno, Cloudflare Workers, service workers). Pass the runtime
 * itself (an `McpServer` is a {@link ServerEndpoint}) so `Mcp-Param-*` headers are checked against its tools'
 * `x-mcp-header` annotations; a bare {@link MessageHandler} serves runtimes without them.
 *
 * The handler answers every request it is given (route by path yourself). In order: POST only (405 with
 * `Allow: POST`); `Host`/`Origin` (403); `authenticate` (401, or 500 when it throws); the body, at most
 * `maxBodyBytes` (413); UTF-8 and JSON (400, -32700 without an id), nesting depth (400, -32602); for requests, the routing and `Mcp-Param-*` headers
 * (400, -32020); then the runtime. Its answer is a JSON `Response` with the status of its error code, a streaming
 * `text/event-stream` `Response` when it sent notifications first (progress, a `subscriptions/listen` stream), or
 * 202 for an accepted notification. The returned promise resolves as soon as the status is known, before a stream
 * ends. `request.signal` aborting, or the reader cancelling the stream, aborts the runtime's `context.signal`.
 *
 * DNS-rebinding protection: `Origin` must be the request's own or listed in `allowedOrigins`. The fetch API does not
 * tell which address a connection arrived on, so the loopback-only `Host` default of the node adapter cannot apply:
 * a server meant for local use only should list its hosts in `allowedHosts`.
 *
 * 2025-era clients (a message without the 2026-07-28 `_meta` and without a 2026 `MCP-Protocol-Version`) get
 * sessions unless `sessions: false`: an `initialize` without `Mcp-Session-Id` opens one, kept and named in the
 * response's `Mcp-Session-Id` only when the runtime answers with a result; later messages naming it reach the
 * runtime with `context.session` and `context.request` (no 2026 header checks, errors on HTTP 200, a dropped
 * connection is not a cancel, `notifications/cancelled` is); POSTed notifications and responses get 202; GET with
 * the id opens the session's SSE stream (one at a time, else 409); DELETE ends it (204); an unknown or ended id
 * gets 404. `close()` ends every session. 2026-07-28 messages ignore `Mcp-Session-Id`.
 */
export function createFetchHandler(
  endpoint: ServerEndpoint | MessageHandler,
  options: FetchHandlerOptions = {},
): FetchHandler {
  const binding = new HttpBinding(endpoint, options);
  const authenticate = options.authenticate;
  const clientGone = errorReply(400, ErrorCode.InvalidRequest, 'The client aborted the request');

  const respond = (request: Request, sink: FetchResponseSink, outcome: HttpReply | OpenResponse): Promise<Response> => {
    if ('status' in outcome) return Promise.resolve(toResponse(outcome));
    sink.watch(request, outcome, clientGone);
    return sink.response;
  };

  const handler = async (request: Request): Promise<Response> => {
    const header: HeaderLookup = (name) => request.headers.get(name) ?? undefined;
    // An in-process `Request` has no Host header; its URL names the host it was addressed to.
    const host = header('host') ?? hostOf(request.url);
    const rejected = binding.screen({ method: request.method, header, host });
    if (rejected !== undefined) return toResponse(rejected);
    // Without an `authenticate` hook nothing is awaited here: an async call and its microtask turns per request
    // bought nothing.
    let authenticated: string | undefined;
    let scopes: readonly string[] | undefined;
    if (authenticate !== undefined) {
      const who = await principalOf(binding, request, authenticate);
      if (who instanceof Response) return who;
      authenticated = who.principal;
      scopes = who.scopes;
    }
    // A GET or DELETE that passed the screen names a session; it has no body to read.
    if (request.method !== 'POST') {
      const sink = new FetchResponseSink();
      return respond(request, sink, binding.dispatchBodiless(request.method, header, sink, authenticated));
    }

    const contentLength = header('content-length');
    if (binding.declaresTooLarge(contentLength)) return toResponse(binding.tooLarge);
    const declared = contentLength === undefined || !/^\d+$/.test(contentLength) ? undefined : Number(contentLength);
    const body = await readRequestBody(request, binding.maxBodyBytes, declared);
    if (body === 'too_large') return toResponse(binding.tooLarge);
    if (body === 'aborted')
      return toResponse(errorReply(400, ErrorCode.InvalidRequest, 'The request body was aborted'));
    const decoded = binding.decode(body);
    if ('reply' in decoded) return toResponse(decoded.reply);
    const message = decoded.message;

    const sink = new FetchResponseSink();
    return respond(request, sink, binding.dispatch(message, header, sink, authenticated, scopes));
  };
  return Object.assign(handler, { close: () => binding.close() });
}

/** The request's principal, or the 401 (no principal) or 500 (the hook threw) response to send instead. */
async function principalOf(
  binding: HttpBinding,
  request: Request,
  authenticate: AuthenticateRequest<Request>,
): Promise<AuthenticatedPrincipal | Response> {
  let result: AuthenticationResult;
  try {
    result = await authenticate(request);
  } catch {
    return toResponse(binding.authFailed);
  }
  const who = binding.authenticated(result);
  return 'status' in who ? toResponse(who) : who;
}
