import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, type MessageHandler, type ServerEndpoint } from '@mcp-tasks/protocol';
import { hasDuplicateHeader } from '@mcp-tasks/transport-kit';
import type { OpenResponse } from './exchange.js';
import { type AuthenticateRequest, HttpBinding, type HttpBindingOptions } from './httpBinding.js';
import { errorReply, type HttpReply } from './httpReply.js';
import { NodeResponseSink, writeReply } from './nodeResponseSink.js';
import { type ReadBodyLimits, readBody } from './readBody.js';
import type { HeaderLookup } from './validateRequestHeaders.js';

/**
 * Turns a node request into the principal its tasks are bound to; `null`/`undefined` means "not authenticated".
 */
export type Authenticate = AuthenticateRequest<IncomingMessage>;

/** Options of {@link createHttpHandler}. */
export interface HttpHandlerOptions extends HttpBindingOptions {
  /**
   * Turns a request into the principal its tasks are bound to (e.g. the subject of a verified bearer token). A
   * `null`/`undefined` result rejects the request with 401 and `WWW-Authenticate`; a thrown error gives 500. Runs
   * before the body is read. Without it requests are unauthenticated (`principal` undefined).
   */
  readonly authenticate?: Authenticate;
  /**
   * Time allowed to receive a request body (a body dribbled slower is answered 408 and the connection closed).
   * 0 disables. Default 30000.
   */
  readonly bodyTimeoutMs?: number;
}

/** Bytes of an over-size body read and dropped so the client reads the 413 rather than a connection reset. */
const DRAIN_BYTES = 16 * 1024 * 1024;

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

type MaybeParsedRequest = IncomingMessage & { body?: unknown };

function headerLookup(req: IncomingMessage): HeaderLookup {
  const headers = req.headers;
  // node:http joins repeated headers with ", " except a few; an array is never a valid routing value.
  return (name) => {
    const value = readHeader(headers, name);
    return typeof value === 'string' ? value : undefined;
  };
}

/**
 * `headers[name]`, with a property load of its own for each header every request reads. With one `headers[name]`
 * for all names, that load site sees every name and V8 makes it megamorphic: about 200 instructions per lookup, where
 * a load of a fixed name costs a few (measured with `pnpm bench:instructions`, see the bench README, "Fifth pass").
 */
function readHeader(headers: IncomingHttpHeaders, name: string): string | string[] | undefined {
  switch (name) {
    case 'host':
      return headers.host;
    case 'origin':
      return headers.origin;
    case 'content-length':
      return headers['content-length'];
    case 'mcp-method':
      return headers['mcp-method'];
    case 'mcp-name':
      return headers['mcp-name'];
    case 'mcp-protocol-version':
      return headers['mcp-protocol-version'];
    case 'mcp-session-id':
      return headers['mcp-session-id'];
    default:
      return headers[name];
  }
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
  const binding = new HttpBinding(endpoint, options);
  const authenticate = options.authenticate;
  const limits: ReadBodyLimits = {
    maxBytes: binding.maxBodyBytes,
    drainBytes: DRAIN_BYTES,
    timeoutMs: options.bodyTimeoutMs ?? 30_000,
  };
  const timedOut = errorReply(408, ErrorCode.InvalidRequest, 'Request body not received in time', undefined, {
    connection: 'close',
  });
  // The drained variant keeps the connection: the body was read to its end.
  const tooLargeDrained: HttpReply = { ...binding.tooLarge, headers: withoutConnection(binding.tooLarge.headers) };

  const write = (res: ServerResponse, sink: NodeResponseSink, outcome: HttpReply | OpenResponse): void => {
    if ('status' in outcome) writeReply(res, outcome);
    else sink.closeWith(outcome);
  };

  const dispatch = (message: unknown, res: ServerResponse, header: HeaderLookup, principal?: string): void => {
    const sink = new NodeResponseSink(res);
    write(res, sink, binding.dispatch(message, header, sink, principal));
  };

  const parseAndDispatch = (
    body: Uint8Array | string,
    res: ServerResponse,
    header: HeaderLookup,
    principal?: string,
  ): void => {
    const decoded = binding.decode(body);
    if ('reply' in decoded) writeReply(res, decoded.reply);
    else dispatch(decoded.message, res, header, principal);
  };

  const readThenDispatch = (req: IncomingMessage, res: ServerResponse, header: HeaderLookup, principal?: string) => {
    readBody(req, limits, (body) => {
      if (body === 'too_large') writeReply(res, req.complete ? tooLargeDrained : binding.tooLarge);
      else if (body === 'timeout') writeReply(res, timedOut);
      else if (body !== 'aborted') parseAndDispatch(body, res, header, principal);
    });
  };

  const receive = (req: MaybeParsedRequest, res: ServerResponse, header: HeaderLookup, principal?: string): void => {
    // A GET or DELETE that passed the screen names a session; it has no body to read.
    if (req.method !== 'POST') {
      const sink = new NodeResponseSink(res);
      write(res, sink, binding.dispatchBodiless(req.method ?? 'GET', header, sink, principal));
      return;
    }
    const parsed = req.body;
    // Mounted behind a body parser: take its result and never read the stream twice.
    if (typeof parsed === 'string') parseAndDispatch(parsed, res, header, principal);
    else if (Buffer.isBuffer(parsed)) parseAndDispatch(parsed, res, header, principal);
    else if (parsed !== undefined) dispatch(parsed, res, header, principal);
    else if (req.readableEnded) parseAndDispatch('', res, header, principal);
    // A declared length past what is worth draining is refused at once, closing the connection.
    else if (Number(header('content-length')) > limits.maxBytes + limits.drainBytes) writeReply(res, binding.tooLarge);
    else readThenDispatch(req, res, header, principal);
  };

  const authenticateThenReceive = (req: IncomingMessage, res: ServerResponse, header: HeaderLookup): void => {
    const failed = () => writeReply(res, binding.authFailed);
    let pending: ReturnType<Authenticate>;
    try {
      pending = (authenticate as Authenticate)(req);
    } catch {
      failed();
      return;
    }
    Promise.resolve(pending).then((principal) => {
      if (principal === null || principal === undefined) writeReply(res, binding.unauthorized);
      else receive(req, res, header, principal);
    }, failed);
  };

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const header = headerLookup(req);
    const rejected = binding.screen({
      method: req.method ?? 'GET',
      header,
      host: header('host'),
      localAddress: req.socket.localAddress,
      duplicateHost: hasDuplicateHeader(req.rawHeaders, 'host'),
    });
    if (rejected !== undefined) writeReply(res, rejected);
    else if (authenticate === undefined) receive(req, res, header);
    else authenticateThenReceive(req, res, header);
  };
  return Object.assign(handler, { close: () => binding.close() });
}

function withoutConnection(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const { connection: _, ...rest } = headers;
  return rest;
}
