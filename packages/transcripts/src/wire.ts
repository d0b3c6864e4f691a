import type { TransportNotification } from '@mcp-tasks/protocol';

/** Which principal a request is sent as: the main credential, or the second one. */
export type Principal = 'main' | 'other';

/** What one exchange carried, as the client saw it. */
export interface Exchange {
  /** The response body (JSON-RPC), or undefined when the request was aborted before one came. */
  readonly response: Record<string, unknown> | undefined;
  /** HTTP only: the headers sent, the status and the response's media type (without parameters). */
  readonly http?: {
    /** The headers sent, credentials excluded. */
    readonly requestHeaders: Readonly<Record<string, string>>;
    /** The HTTP status of the response. */
    readonly status: number;
    /** The response's media type without parameters, or the empty string when it had no `Content-Type`. */
    readonly contentType: string;
  };
}

/** Options of one request on a {@link Wire}. */
export interface WireRequestOptions {
  /** The principal whose credential (or connection) carries the request. */
  readonly as: Principal;
  /** HTTP only: the headers to send instead of the computed routing headers (credentials are added). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Receives each notification the server sends about this request (over HTTP: on its event stream), in order. */
  readonly onNotification?: (notification: TransportNotification) => void;
  /** Aborting ends the request (a listen stream) without waiting for its response. */
  readonly signal?: AbortSignal;
  /** Called when an HTTP response's head arrived (a listen stream stays open after it). */
  readonly onHttpHead?: (http: NonNullable<Exchange['http']>) => void;
}

/**
 * A client-side connection to the server under test that carries raw JSON-RPC: each transport plays a request and
 * hands back the response as it came (no schema validation, no retries), so the transcript checks what the server
 * sent.
 */
export interface Wire {
  /** The transport: Streamable HTTP, WebSocket or stdio. */
  readonly kind: 'http' | 'ws' | 'stdio';
  /** Why requests `as: 'other'` cannot be sent, or undefined when a second principal is configured. */
  readonly otherUnavailable: string | undefined;
  /**
   * Sends one request (the wire picks its JSON-RPC id) and resolves with the response as it came, a JSON-RPC error
   * included, or without one when `signal` aborted it. Rejects when the transport fails (a refused connection, a
   * broken stream).
   */
  request(
    message: { readonly method: string; readonly params: unknown },
    options: WireRequestOptions,
  ): Promise<Exchange>;
  /** Closes the connections the wire opened (one per principal; none over HTTP) and resolves once they are closed. */
  close(): Promise<void>;
}
