import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { MessageHandler, TransportResponse } from '@mcp-tasks/protocol';
import { isRecord } from '@mcp-tasks/protocol';
import { Exchange, writeJson } from './exchange.js';
import { createOriginGuard, type OriginGuardOptions } from './originGuard.js';
import { readBody } from './readBody.js';
import { validateRequestHeaders } from './validateRequestHeaders.js';

/**
 * Turns a request into the principal its tasks are bound to; `null`/`undefined` means "not authenticated".
 */
export type Authenticate = (req: IncomingMessage) => string | null | undefined | Promise<string | null | undefined>;

/** Options of {@link createHttpHandler}. */
export interface HttpHandlerOptions extends OriginGuardOptions {
  /** Largest accepted request body in bytes; larger bodies get 413 without being buffered. Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * Validate `Host` and `Origin` against DNS rebinding (see {@link OriginGuardOptions}); a rejected request gets 403.
   * Default true.
   */
  readonly dnsRebindingProtection?: boolean;
  /**
   * Turns a request into the principal its tasks are bound to (e.g. the subject of a verified bearer token). A
   * `null`/`undefined` result rejects the request with 401 and `WWW-Authenticate`; a thrown error gives 500. Runs
   * before the body is read. Without it requests are unauthenticated (`principal` undefined).
   */
  readonly authenticate?: Authenticate;
  /** The `WWW-Authenticate` value sent with 401. Default `Bearer`. */
  readonly wwwAuthenticate?: string;
  /** Interval of `:` keep-alive comments on SSE responses (listen streams). 0 disables. Default 15000. */
  readonly keepAliveIntervalMs?: number;
  /** An SSE response whose unsent backlog exceeds this many bytes is dropped as a slow reader. Default 8 MiB. */
  readonly maxStreamBufferBytes?: number;
}

/**
 * A node:http request listener that is also express 5 middleware (`app.use('/mcp', handler)`): `next` is never
 * called, every request that reaches it is answered.
 */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void;

type MaybeParsedRequest = IncomingMessage & { body?: unknown };

function jsonRpcError(code: number, message: string, id?: string | number): Record<string, unknown> {
  const error = { code, message };
  return id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };
}

/** RequestContext.headers holds strings only; node:http gives an array solely for `set-cookie`. */
function contextHeaders(headers: IncomingHttpHeaders): Readonly<Record<string, string | undefined>> {
  const cookies = headers['set-cookie'];
  if (cookies === undefined) return headers as Readonly<Record<string, string | undefined>>;
  return { ...headers, 'set-cookie': cookies.join(', ') } as Readonly<Record<string, string | undefined>>;
}

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INTERNAL_ERROR = -32603;
const HEADER_MISMATCH = -32020;

/**
 * Creates the Streamable HTTP server endpoint (MCP 2026-07-28) around a runtime's {@link MessageHandler}.
 *
 * Per request, in order: POST only (else 405 with `Allow: POST`); `Host`/`Origin` check (403); `authenticate`
 * (401); body read with a size limit (413) or taken from `req.body` when `express.json()` already parsed it; JSON
 * parse (400, -32700); for requests, the SEP-2243 routing headers (400, -32020, see `validateRequestHeaders`); then
 * the runtime. Its answer is written as JSON with the status CONFORMANCE.md pins (see `httpStatusForError`), as
 * an SSE stream when it sent notifications first, or as 202 for an accepted notification. Closing the response
 * early aborts `context.signal`. Errors never throw out of the handler.
 */
export function createHttpHandler(handler: MessageHandler, options: HttpHandlerOptions = {}): HttpHandler {
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const guard = options.dnsRebindingProtection === false ? undefined : createOriginGuard(options);
  const authenticate = options.authenticate;
  const wwwAuthenticate = options.wwwAuthenticate ?? 'Bearer';
  const exchangeOptions = {
    keepAliveIntervalMs: options.keepAliveIntervalMs ?? 15_000,
    maxStreamBufferBytes: options.maxStreamBufferBytes ?? 8 * 1024 * 1024,
  };

  const dispatch = (message: unknown, req: IncomingMessage, res: ServerResponse, principal?: string): void => {
    let id: string | number | undefined;
    if (isRecord(message) && typeof message.method === 'string') {
      const rawId = message.id;
      if (typeof rawId === 'string' || typeof rawId === 'number') {
        id = rawId;
        const mismatch = validateRequestHeaders(message.method, message.params, req.headers);
        if (mismatch !== undefined) {
          writeJson(res, 400, jsonRpcError(HEADER_MISMATCH, mismatch, id));
          return;
        }
      }
    }
    const exchange = new Exchange(res, principal, contextHeaders(req.headers), exchangeOptions);
    const internalError = () => jsonRpcError(INTERNAL_ERROR, 'Internal error', id) as TransportResponse;
    handler(message, exchange).then(
      // A request must be answered; undefined is only for notifications.
      (response) => exchange.finish(response === undefined && id !== undefined ? internalError() : response),
      () => exchange.finish(internalError()),
    );
  };

  const parseAndDispatch = (text: string, req: IncomingMessage, res: ServerResponse, principal?: string): void => {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      writeJson(res, 400, jsonRpcError(PARSE_ERROR, 'Parse error: the body is not valid JSON'));
      return;
    }
    dispatch(message, req, res, principal);
  };

  const receive = (req: MaybeParsedRequest, res: ServerResponse, principal?: string): void => {
    const parsed = req.body;
    // Mounted behind a body parser: take its result and never read the stream twice.
    if (typeof parsed === 'string') parseAndDispatch(parsed, req, res, principal);
    else if (Buffer.isBuffer(parsed)) parseAndDispatch(parsed.toString('utf8'), req, res, principal);
    else if (parsed !== undefined) dispatch(parsed, req, res, principal);
    else if (req.readableEnded) parseAndDispatch('', req, res, principal);
    else {
      readBody(req, maxBodyBytes).then((body) => {
        if (body === 'too_large') {
          const error = jsonRpcError(INVALID_REQUEST, `Request body exceeds ${maxBodyBytes} bytes`);
          writeJson(res, 413, error, { connection: 'close' });
        } else if (body !== 'aborted') {
          parseAndDispatch(body.toString('utf8'), req, res, principal);
        }
      });
    }
  };

  const authenticateThenReceive = (req: IncomingMessage, res: ServerResponse, auth: Authenticate): void => {
    const failed = () => writeJson(res, 500, jsonRpcError(INTERNAL_ERROR, 'Authentication failed'));
    let pending: ReturnType<Authenticate>;
    try {
      pending = auth(req);
    } catch {
      failed();
      return;
    }
    Promise.resolve(pending).then((principal) => {
      if (principal === null || principal === undefined) {
        writeJson(res, 401, jsonRpcError(INVALID_REQUEST, 'Unauthorized'), { 'www-authenticate': wwwAuthenticate });
      } else {
        receive(req, res, principal);
      }
    }, failed);
  };

  return (req, res) => {
    if (req.method !== 'POST') {
      const error = jsonRpcError(INVALID_REQUEST, 'Method not allowed: the MCP endpoint accepts POST');
      writeJson(res, 405, error, { allow: 'POST' });
    } else if (guard !== undefined && !guard(req)) {
      writeJson(res, 403, jsonRpcError(INVALID_REQUEST, 'Forbidden: Host or Origin not allowed'));
    } else if (authenticate === undefined) {
      receive(req, res);
    } else {
      authenticateThenReceive(req, res, authenticate);
    }
  };
}
