import { ErrorCode, isRecord, type MessageHandler, messageEra, type ServerEndpoint } from '@mcp-tasks/protocol';
import { createOriginCheck, decodeMessage, decodeUtf8, type OriginPolicy } from '@mcp-tasks/transport-kit';
import type { HeaderLookup } from './checkParamHeaders.js';
import { type HttpSessionOptions, HttpSessions, SessionRouter } from './era-2025/index.js';
import { Exchange, type ExchangeOptions, type OpenResponse } from './exchange.js';
import { errorReply, type HttpReply } from './httpReply.js';
import type { ResponseSink } from './responseSink.js';
import { runHandler } from './runHandler.js';
import {
  type AuthenticatedPrincipal,
  defaultScopeChallenge,
  type RequiredScopesLookup,
  refuseMissingScopes,
  type ScopeChallenge,
} from './scopeCheck.js';
import { carryTraceHeaders } from './traceHeaders.js';
import { type ParamHeaderLookup, validateRequestHeaders } from './validateRequestHeaders.js';

/** DNS-rebinding protection settings (the `Host`/`Origin` check); see {@link OriginPolicy}. */
export type OriginGuardOptions = OriginPolicy;

/** The Streamable HTTP rules every front (fetch, node:http, express) applies alike. */
export interface HttpBindingOptions extends OriginGuardOptions {
  /** Largest accepted request body in bytes; larger bodies get 413 without being buffered. Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * Validate `Host` and `Origin` against DNS rebinding (see {@link OriginGuardOptions}); a rejected request gets 403.
   * Default true.
   */
  readonly dnsRebindingProtection?: boolean;
  /** The `WWW-Authenticate` value sent with 401. Default `Bearer`. */
  readonly wwwAuthenticate?: string;
  /**
   * The `WWW-Authenticate` value sent with 403 when a token lacks a tool's required scopes, given the scopes the
   * request needs (space-separated); e.g. `bearerChallenge` of `@mcp-tasks/oauth-resource-server` with
   * `error: 'insufficient_scope'`. Default `Bearer error="insufficient_scope", scope="..."`.
   */
  readonly insufficientScopeChallenge?: ScopeChallenge;
  /** Interval of `:` keep-alive comments on SSE responses (listen streams). 0 disables. Default 15000. */
  readonly keepAliveIntervalMs?: number;
  /** An SSE response whose unsent backlog exceeds this many bytes is dropped as a slow reader. Default 8 MiB. */
  readonly maxStreamBufferBytes?: number;
  /** Deepest accepted nesting of objects and arrays in a message; deeper gets 400 with `-32602`. Default 64. */
  readonly maxDepth?: number;
  /**
   * 2025-era sessions (`Mcp-Session-Id`, GET streams, DELETE) and their bounds; see {@link HttpSessionOptions} for
   * each default. `false` turns them off: a 2025-era `initialize` then reaches the runtime without a session, and
   * GET and DELETE get 405. 2026-07-28 messages never use sessions.
   */
  readonly sessions?: HttpSessionOptions | false;
}

/**
 * How an authentication hook refuses a request with a challenge of its own, e.g. `Bearer error="invalid_token"` for
 * a presented token that was refused (RFC 6750 section 3.1); the request is answered 401 with it.
 */
export interface AuthenticationRefusal {
  /** The `WWW-Authenticate` value of the 401. */
  readonly challenge: string;
}

/**
 * What an authentication hook answers: a principal, a principal with its token's scopes, a refusal with its own
 * challenge, or none (401 with the configured `wwwAuthenticate`).
 */
export type AuthenticationResult = string | AuthenticatedPrincipal | AuthenticationRefusal | null | undefined;

/**
 * Turns a request (a fetch `Request`, or a node `IncomingMessage`) into the principal its tasks are bound to, with
 * the scopes its token grants when known (see {@link AuthenticatedPrincipal}); `null`/`undefined` means "not
 * authenticated".
 */
export type AuthenticateRequest<R> = (request: R) => AuthenticationResult | Promise<AuthenticationResult>;

/** What the binding knows about an inbound request before its body: enough for the method and origin checks. */
export interface RequestHead {
  readonly method: string;
  readonly header: HeaderLookup;
  /**
   * The request's `Host`: its header, read once by the front, or where the front learns it otherwise (an in-process
   * fetch `Request` has no header; its URL names the host). Undefined when there is none.
   */
  readonly host: string | undefined;
  /** The local address the connection arrived on, when the platform tells (the loopback default needs it). */
  readonly localAddress?: string | undefined;
  /** True when the request carried more than one `Host` header (a front that sees raw headers reports it). */
  readonly duplicateHost?: boolean;
}

/** What {@link HttpBinding.decode} made of a body: the message, or the reply that refuses it. */
export type DecodedBody = { readonly message: unknown } | { readonly reply: HttpReply };

const NO_PARAM_HEADERS: ParamHeaderLookup = () => [];

/**
 * The rules of the Streamable HTTP binding (MCP 2026-07-28), with no I/O: each front reads the request its own
 * way, asks the binding in this order, and writes the {@link HttpReply} or the {@link Exchange} it gets back.
 * 1. {@link HttpBinding.screen}: a single `Host` (400), POST only (405; GET and DELETE pass when they carry
 *    `Mcp-Session-Id` and go to {@link HttpBinding.dispatchBodiless} after authentication), `Host`/`Origin` (403);
 * 2. the front's authentication hook: {@link HttpBinding.unauthorized} (401) or {@link HttpBinding.authFailed} (500);
 * 3. the body, at most {@link HttpBinding.maxBodyBytes} ({@link HttpBinding.tooLarge}, 413);
 * 4. {@link HttpBinding.decode}: invalid UTF-8 or JSON gets 400/-32700 without an id, too deep a message 400/-32602;
 * 5. {@link HttpBinding.dispatch}: a `tools/call` whose token lacks the tool's required scopes gets 403 with an
 *    `insufficient_scope` challenge (both eras); a 2025-era message of a session (or a 2025-era `initialize`) goes
 *    to its session, without the 2026-07-28 header checks; everything else: routing and `Mcp-Param-*` headers
 *    (400/-32020), then the runtime.
 */
export class HttpBinding {
  readonly maxBodyBytes: number;
  readonly #parseError: HttpReply = errorReply(400, ErrorCode.ParseError, 'Parse error: the body is not valid JSON');
  readonly #invalidUtf8: HttpReply = errorReply(400, ErrorCode.ParseError, 'Parse error: the body is not valid UTF-8');
  readonly #duplicateHost = errorReply(400, ErrorCode.InvalidRequest, 'Bad Request: more than one Host header');
  readonly #maxDepth: number | undefined;
  readonly tooLarge: HttpReply;
  readonly unauthorized: HttpReply;
  readonly authFailed: HttpReply = errorReply(500, ErrorCode.InternalError, 'Authentication failed');
  readonly #handle: MessageHandler;
  readonly #paramHeaders: ParamHeaderLookup;
  readonly #requiredScopes: RequiredScopesLookup | undefined;
  readonly #scopeChallenge: ScopeChallenge;
  readonly #exchangeOptions: ExchangeOptions;
  readonly #originCheck: ReturnType<typeof createOriginCheck> | undefined;
  readonly #methodNotAllowed = errorReply(
    405,
    ErrorCode.InvalidRequest,
    'Method not allowed: the MCP endpoint accepts POST',
    undefined,
    { allow: 'POST' },
  );
  readonly #forbidden = errorReply(403, ErrorCode.InvalidRequest, 'Forbidden: Host or Origin not allowed');
  readonly #sessions: HttpSessions | undefined;
  readonly #router: SessionRouter | undefined;

  constructor(endpoint: ServerEndpoint | MessageHandler, options: HttpBindingOptions) {
    if (typeof endpoint === 'function') {
      this.#handle = endpoint;
      this.#paramHeaders = NO_PARAM_HEADERS;
    } else {
      this.#handle = endpoint.handle;
      this.#paramHeaders = (name) => endpoint.toolParamHeaders(name);
      const required = endpoint.toolRequiredScopes;
      if (required !== undefined) this.#requiredScopes = (name) => required.call(endpoint, name);
    }
    this.#scopeChallenge = options.insufficientScopeChallenge ?? defaultScopeChallenge;
    this.maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
    this.#maxDepth = options.maxDepth;
    this.tooLarge = errorReply(
      413,
      ErrorCode.InvalidRequest,
      `Request body exceeds ${this.maxBodyBytes} bytes`,
      undefined,
      { connection: 'close' },
    );
    this.unauthorized = errorReply(401, ErrorCode.InvalidRequest, 'Unauthorized', undefined, {
      'www-authenticate': options.wwwAuthenticate ?? 'Bearer',
    });
    this.#originCheck = options.dnsRebindingProtection === false ? undefined : createOriginCheck(options);
    this.#exchangeOptions = {
      keepAliveIntervalMs: options.keepAliveIntervalMs ?? 15_000,
      maxStreamBufferBytes: options.maxStreamBufferBytes ?? 8 * 1024 * 1024,
    };
    if (options.sessions !== false) {
      this.#sessions = new HttpSessions(options.sessions);
      this.#router = new SessionRouter(this.#sessions, this.#handle, this.#exchangeOptions);
    }
  }

  /** Ends every 2025-era session (their `closed` signals abort) and refuses new ones. Idempotent. */
  close(): void {
    this.#sessions?.close();
  }

  /** The checks before authentication: the HTTP method, then `Host`/`Origin`. Undefined when the request may go on. */
  screen(head: RequestHead): HttpReply | undefined {
    // RFC 9112 section 3.2: a request with more than one Host field line must get 400. Fronts that join repeated
    // headers (fetch) show them as one comma-separated value, which is never a valid Host.
    const host = head.host;
    if (head.duplicateHost === true || host?.includes(',')) return this.#duplicateHost;
    if (head.method !== 'POST' && !this.#namesSession(head)) return this.#methodNotAllowed;
    const check = this.#originCheck;
    if (check === undefined) return undefined;
    const input = {
      host,
      origin: head.header('origin'),
      localAddress: head.localAddress,
    };
    return check(input) ? undefined : this.#forbidden;
  }

  /** The hook's answer as the request's principal, or the 401 to send: the configured challenge, or the hook's own. */
  authenticated(result: AuthenticationResult): AuthenticatedPrincipal | HttpReply {
    if (result === null || result === undefined) return this.unauthorized;
    if (typeof result === 'string') return { principal: result };
    if ('challenge' in result)
      return errorReply(401, ErrorCode.InvalidRequest, 'Unauthorized', undefined, {
        'www-authenticate': result.challenge,
      });
    return result;
  }

  /** A GET or DELETE with `Mcp-Session-Id` is a session's business; without one it gets 405 as ever. */
  #namesSession(head: RequestHead): boolean {
    return (
      this.#router !== undefined &&
      (head.method === 'GET' || head.method === 'DELETE') &&
      head.header('mcp-session-id') !== undefined
    );
  }

  /**
   * A screened GET or DELETE naming a session: 404 for an unknown or ended one; DELETE ends it (204); GET opens its
   * server-to-client SSE stream (409 when it has one). The front must call the stream's `close` when the client goes.
   */
  dispatchBodiless(
    method: string,
    header: HeaderLookup,
    sink: ResponseSink,
    principal?: string,
  ): HttpReply | OpenResponse {
    return this.#router?.bodiless(method, header, sink, principal) ?? this.#methodNotAllowed;
  }

  /** True when a declared `Content-Length` alone rules the body out (refused before reading it). */
  declaresTooLarge(contentLength: string | undefined): boolean {
    return contentLength !== undefined && Number(contentLength) > this.maxBodyBytes;
  }

  /**
   * Decodes a body (raw bytes, or text a body parser already decoded): strict UTF-8, JSON, then the nesting bound.
   * Returns the message, or the 400 reply to write instead.
   */
  decode(body: Uint8Array | string): DecodedBody {
    const text = typeof body === 'string' ? body : decodeUtf8(body);
    if (text === undefined) return { reply: this.#invalidUtf8 };
    const decoded = decodeMessage(text, { maxDepth: this.#maxDepth });
    if (decoded.ok) return { message: decoded.message };
    const error = 'error' in decoded.error ? decoded.error.error : undefined;
    if (error === undefined || error.code === ErrorCode.ParseError) return { reply: this.#parseError };
    return { reply: errorReply(400, ErrorCode.InvalidParams, error.message, decoded.error.id, undefined, error.data) };
  }

  /**
   * Hands a parsed message to its session (a 2025-era message naming one, or a 2025-era `initialize`), or checks its
   * headers and hands it to the runtime. Returns the reply to write (a rejection, or 202 for a POSTed response), or
   * the {@link OpenResponse} now writing the runtime's answer into `sink`: the front must call its `close` when the
   * client goes away. Never throws; a runtime that rejects or answers a request with nothing is answered -32603.
   * `scopes` are the ones the request's token grants (undefined: not known, so required scopes are not checked).
   */
  dispatch(
    message: unknown,
    header: HeaderLookup,
    sink: ResponseSink,
    principal?: string,
    scopes?: readonly string[],
  ): HttpReply | OpenResponse {
    if (scopes !== undefined && this.#requiredScopes !== undefined) {
      const refused = refuseMissingScopes(message, scopes, this.#requiredScopes, this.#scopeChallenge);
      if (refused !== undefined) return refused;
    }
    // The era is decided here, once: a 2026-07-28 message never enters the 2025-era session router.
    const legacy = this.#router !== undefined && isLegacyEra(message, header);
    carryTraceHeaders(message, header, legacy);
    if (legacy) {
      const routed = this.#router.post(message, header, sink, principal);
      if (routed !== undefined) return routed;
    }
    let id: string | number | undefined;
    if (isRecord(message) && typeof message.method === 'string') {
      const rawId = message.id;
      if (typeof rawId === 'string' || typeof rawId === 'number') {
        id = rawId;
        const mismatch = validateRequestHeaders(message.method, message.params, header, this.#paramHeaders);
        if (mismatch !== undefined) return errorReply(400, ErrorCode.HeaderMismatch, mismatch, id);
      }
    }
    const exchange = new Exchange(sink, principal, this.#exchangeOptions);
    runHandler(this.#handle, message, exchange, id, (response) => exchange.finish(response));
    return exchange;
  }
}

/**
 * True for a 2025-era message. The body decides alone for every 2026-07-28 message (it carries the version in
 * `_meta`), so the header is read only for a message without it: a header lookup is a measurable share of a request
 * on fetch adapters.
 */
function isLegacyEra(message: unknown, header: HeaderLookup): boolean {
  return messageEra(message) === 'legacy' && messageEra(message, header('mcp-protocol-version')?.trim()) === 'legacy';
}
