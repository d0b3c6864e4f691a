import type { TransportNotification } from '@mcp-tasks/protocol';

/** Which principal a request is sent as: the main credential, or the second one. */
export type Principal = 'main' | 'other';

/** What one exchange carried, as the client saw it. */
export interface Exchange {
  /** The response body (JSON-RPC), or undefined when the request was aborted before one came. */
  readonly response: Record<string, unknown> | undefined;
  /** HTTP only: the headers sent, the status and the response's media type (without parameters). */
  readonly http?: {
    readonly requestHeaders: Readonly<Record<string, string>>;
    readonly status: number;
    readonly contentType: string;
  };
}

/** Options of one request on a {@link Wire}. */
export interface WireRequestOptions {
  readonly as: Principal;
  /** HTTP only: the headers to send instead of the computed routing headers (credentials are added). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
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
  readonly kind: 'http' | 'ws' | 'stdio';
  /** Why requests `as: 'other'` cannot be sent, or undefined when a second principal is configured. */
  readonly otherUnavailable: string | undefined;
  request(
    message: { readonly method: string; readonly params: unknown },
    options: WireRequestOptions,
  ): Promise<Exchange>;
  close(): Promise<void>;
}
