/**
 * The transport seam. Transports never import a runtime and runtimes never import a transport; both meet here.
 *
 * In MCP 2026-07-28 every exchange is a client request answered by one response, optionally preceded by
 * notifications scoped to that request (progress on a `tools/call`, the ack and notifications of a
 * `subscriptions/listen`). So the server side is one function, {@link MessageHandler}, and the client side is
 * {@link ClientTransport.request} with a per-request notification callback.
 *
 * The message types here are structural (plain JSON-RPC objects) so this file has no dependency on the schemas;
 * the schemas in this package validate the same shapes.
 */

/** A JSON-RPC id. */
export type TransportRequestId = string | number;

/** A JSON-RPC 2.0 request as it travels. */
export interface TransportRequest {
  /** Always `2.0`. */
  readonly jsonrpc: '2.0';
  /** The request id, echoed by the response. */
  readonly id: TransportRequestId;
  /** The method to invoke. */
  readonly method: string;
  /** The method's parameters. */
  readonly params?: { readonly [key: string]: unknown };
}

/** A JSON-RPC 2.0 notification as it travels. */
export interface TransportNotification {
  /** Always `2.0`. */
  readonly jsonrpc: '2.0';
  /** The notification's method. */
  readonly method: string;
  /** The notification's parameters. */
  readonly params?: { readonly [key: string]: unknown };
}

/**
 * A JSON-RPC 2.0 response (result or error) as it travels. An error that cannot name its request (unparseable input)
 * omits `id`: the 2026-07-28 schema types it as an optional string | integer, so JSON-RPC 2.0's `"id": null` would
 * not validate. Receivers should still accept a null id from other implementations.
 */
export type TransportResponse =
  | {
      /** Always `2.0`. */
      readonly jsonrpc: '2.0';
      /** The id of the request answered. */
      readonly id: TransportRequestId;
      /** The method's result. */
      readonly result: { readonly [key: string]: unknown };
    }
  | {
      /** Always `2.0`. */
      readonly jsonrpc: '2.0';
      /** The id of the request answered; absent when it could not be read. */
      readonly id?: TransportRequestId;
      /** The error. */
      readonly error: {
        /** The error code. */
        readonly code: number;
        /** A short description of the error. */
        readonly message: string;
        /** Additional information, defined by the code. */
        readonly data?: unknown;
      };
    };

/**
 * What a server transport knows about one inbound message, handed to the runtime with it.
 *
 * Ownership: the transport creates the context and owns `signal`; it aborts the signal when the request is
 * cancelled (`notifications/cancelled`), when the connection that carried it closes, or on shutdown.
 */
export interface RequestContext {
  /**
   * The authenticated principal (e.g. a token subject), or undefined on unauthenticated transports. Tasks are
   * bound to it: a task created by one principal is invisible to every other.
   */
  readonly principal?: string;
  /**
   * Sends a notification scoped to this request (progress, log messages, a listen stream's ack and
   * notifications). Delivered before the response, in call order. Calls after the response are dropped.
   */
  notify(notification: TransportNotification): void;
  /**
   * Aborted when the request is cancelled, its connection closes, or the transport shuts down. Our transports make
   * it on first read (an `AbortSignal` per message is costly), so it is an accessor of the context's class: a
   * wrapper that copies the context with a spread must copy it by name: `{ ...context, signal: context.signal }`.
   */
  readonly signal: AbortSignal;
  /**
   * The stateful session this message arrived on, on transports that carry 2025-era sessions: over Streamable HTTP
   * the session named by `Mcp-Session-Id` (or, for a POSTed `initialize` without that header, a fresh session that
   * the transport keeps only if the runtime answers with a result); over stdio and WebSocket the connection itself.
   * Undefined when there is none (an HTTP request without `Mcp-Session-Id`). The 2026-07-28 wire never uses it.
   */
  readonly session?: PeerSession;
  /**
   * Sends a server-to-client request on behalf of this inbound request (2025-era `elicitation/create`,
   * `sampling/createMessage`, `roots/list` while a tool runs): over Streamable HTTP on this request's own SSE
   * stream, elsewhere on the connection. Same contract as {@link PeerSession.request}. Undefined where the message
   * has no session.
   */
  request?(message: OutboundRequest, options?: PeerRequestOptions): Promise<TransportResponse>;
}

/** A server-to-client request before the transport gives it an id. */
export interface OutboundRequest {
  /** The method to invoke on the client. */
  readonly method: string;
  /** The method's parameters. */
  readonly params?: { readonly [key: string]: unknown };
}

/** Options for one server-to-client request. */
export interface PeerRequestOptions {
  /**
   * Aborting rejects the pending request with `TransportError('closed')` and tells the client
   * (`notifications/cancelled` naming the request).
   */
  readonly signal?: AbortSignal;
}

/**
 * One 2025-era session as the server runtime sees it: the way back to a client outside any single request.
 *
 * Ownership: the transport creates and ends sessions (HTTP: on `initialize`, `DELETE`, idle expiry or shutdown;
 * stdio and WebSocket: with the connection) and owns the ids of the requests it sends. The runtime keys its
 * per-session state (negotiated version, client capabilities, log level, subscriptions) by {@link id} and drops it
 * when {@link closed} aborts. Every transport in this repository provides sessions: stdio and WebSocket on every
 * message (the runtime decides the era), Streamable HTTP on 2025-era messages that name a live `Mcp-Session-Id`
 * and on a 2025-era `initialize`.
 */
export interface PeerSession {
  /**
   * Unique among the transport's live sessions. Over HTTP it is the `Mcp-Session-Id`: unguessable, visible ASCII.
   */
  readonly id: string;
  /**
   * Sends a notification that belongs to no request (list changes, resource updates, task status): over HTTP on
   * the session's GET stream, or queued (bounded) until one opens; elsewhere on the connection. Never throws;
   * dropped once the session has ended.
   */
  notify(notification: TransportNotification): void;
  /**
   * Sends a server-to-client request that belongs to no inbound request (over HTTP on the GET stream, queued until
   * one opens) and resolves with the client's response; a JSON-RPC error response resolves too. The transport
   * assigns the id and routes the response (a POSTed response over HTTP, a line or frame elsewhere) back here.
   * Rejects with `TransportError('closed')` when the session ends or `options.signal` aborts first, with
   * `TransportError('send_failed')` when the transport's bound on pending or queued requests is reached, and with
   * `TransportError('timeout')` when the transport's own deadline for an answer passes.
   */
  request(message: OutboundRequest, options?: PeerRequestOptions): Promise<TransportResponse>;
  /** Aborts once, when the session ends for any reason. */
  readonly closed: AbortSignal;
}

/**
 * The server runtime as transports see it: takes one parsed inbound message (anything `JSON.parse` produced; the
 * runtime validates it) and resolves with the response to write, or undefined for notifications. Never rejects:
 * every failure becomes a JSON-RPC error response.
 *
 * For `subscriptions/listen` the promise stays pending while the stream is open (notifications flow through
 * `context.notify`) and resolves with the final listen result when the server ends it or `context.signal` aborts.
 */
export type MessageHandler = (message: unknown, context: RequestContext) => Promise<TransportResponse | undefined>;

/** One tool argument annotated with `x-mcp-header`: the `properties` path to its value and the header name suffix. */
export interface ParamHeader {
  /** The `properties` path from the arguments to the value. */
  readonly path: readonly string[];
  /** The header name suffix: the value travels as `Mcp-Param-{name}`. */
  readonly name: string;
}

/**
 * A server runtime as a transport receives it: the {@link MessageHandler}, plus what a binding that mirrors body
 * fields into its own framing must check before it hands a message over. Streamable HTTP mirrors every tool
 * argument annotated with `x-mcp-header` into an `Mcp-Param-{name}` header and must reject a `tools/call` whose
 * headers disagree with its arguments; only the runtime knows the tools, so it answers that question here. Other
 * transports use `handle` alone.
 */
export interface ServerEndpoint {
  /** Handles every inbound message; see {@link MessageHandler}. */
  readonly handle: MessageHandler;
  /**
   * The annotated arguments of the tool named `toolName`, in schema order: empty when the tool has none or is
   * unknown (the runtime then answers the call itself). Called once per `tools/call`, so it should be a lookup.
   */
  toolParamHeaders(toolName: string): readonly ParamHeader[];
  /**
   * The OAuth scopes a call of the tool named `toolName` needs; empty when it needs none or is unknown. An HTTP
   * binding refuses a `tools/call` whose access token lacks one with 403 `insufficient_scope`. Optional: an
   * endpoint without it has no per-tool scopes.
   */
  toolRequiredScopes?(toolName: string): readonly string[];
}

/** Options for one client request. */
export interface ClientRequestOptions {
  /** Aborting rejects the pending request locally and tells the server (`notifications/cancelled`, or closing the HTTP stream). */
  readonly signal?: AbortSignal;
  /** Receives notifications scoped to this request (progress; a listen stream's ack and notifications), in order. */
  readonly onNotification?: (notification: TransportNotification) => void;
}

/**
 * The client runtime as transports see it. A third-party transport implements this interface and nothing else.
 *
 * Ordering: notifications for a request are delivered to its `onNotification` before its promise resolves.
 * Errors: transport failures reject with {@link TransportError}; JSON-RPC error responses resolve normally (the
 * runtime turns them into protocol errors).
 */
export interface ClientTransport {
  /** Sends one request and resolves with its response. */
  request(message: TransportRequest, options?: ClientRequestOptions): Promise<TransportResponse>;
  /** Sends one notification (e.g. `notifications/cancelled`); resolves once handed to the channel. */
  notify(message: TransportNotification): Promise<void>;
  /**
   * Idempotent. Rejects every in-flight request with a `TransportError('closed')` and releases what the transport
   * opened (sockets, child processes). {@link closed} has resolved with `initiator: 'local'` by the time the
   * returned promise resolves, unless the peer had already gone away.
   */
  close(): Promise<void>;
  /**
   * Resolves once, when the connection is closed for good: by {@link close}, or because the peer went away (the
   * server process exited, the socket closed and reconnecting gave up). From then on every request rejects with
   * `TransportError('closed')`. Never rejects, so it is safe to leave unobserved; listeners attached after the
   * close still see it. A transport without a connection of its own (Streamable HTTP, where every request is a
   * separate exchange) resolves it only on {@link close}.
   */
  readonly closed: Promise<TransportClosed>;
  /**
   * Installs the receiver of server-initiated messages (2025-era sessions); replaces any earlier one. Until one is
   * installed a server request is answered `-32601` and an unrelated notification is dropped. Optional: a
   * transport that cannot carry server-initiated messages omits it, and the client then speaks only 2026-07-28.
   */
  setPeerHandler?(handler: ClientPeerHandler): void;
}

/**
 * What a client installs on a {@link ClientTransport} to take part in a 2025-era session: the messages a server
 * sends that are not the answer to one of the client's requests. The stdio, WebSocket and Streamable HTTP client
 * transports of this repository implement {@link ClientTransport.setPeerHandler}.
 */
export interface ClientPeerHandler {
  /**
   * A server-to-client request (`ping`, `elicitation/create`, `sampling/createMessage`, `roots/list`, task
   * methods), from whichever stream carried it (a POST's SSE stream, the GET stream, the connection). Resolves with
   * the response the transport sends back (over HTTP as a POST); never rejects. `signal` aborts when the server
   * cancels the request (`notifications/cancelled`) or the transport closes.
   */
  onRequest(request: TransportRequest, context: { readonly signal: AbortSignal }): Promise<TransportResponse>;
  /** A notification that belongs to none of the client's pending requests (list changes, task status, logs). */
  onNotification(notification: TransportNotification): void;
}

/** How a {@link ClientTransport}'s connection ended. */
export interface TransportClosed {
  /** `local`: the client called `close()`; `remote`: the peer or the channel ended it. */
  readonly initiator: 'local' | 'remote';
  /** What the transport knows about a remote end (exit code, close code), as a `TransportError('closed')`. */
  readonly error?: TransportError | undefined;
}

/** Why a transport failed. Never serialized onto the wire; callers match on `code`. */
export type TransportErrorCode = 'closed' | 'malformed_frame' | 'send_failed' | 'http_status' | 'timeout';

/** A local transport failure (connection closed, child died, malformed frame). Not a JSON-RPC error. */
export class TransportError extends Error {
  /** Always `'TransportError'`. */
  override readonly name = 'TransportError';
  /** What failed; match on it rather than on the message. */
  readonly code: TransportErrorCode;
  /** HTTP status when `code` is `http_status`. */
  readonly status: number | undefined;

  /** Creates the error; `options.status` is the HTTP status for `http_status`, `options.cause` the underlying error. */
  constructor(code: TransportErrorCode, message: string, options?: { cause?: unknown; status?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options?.status;
  }
}
