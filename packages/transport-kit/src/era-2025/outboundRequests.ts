import type { OutboundRequest, TransportNotification, TransportRequest, TransportResponse } from '@mcp-tasks/protocol';
import { isRecord, onAbort, TransportError } from '@mcp-tasks/protocol';
import { PendingRequests } from '../pendingRequests.js';

/** Default {@link OutboundRequestsOptions.maxPending}: server-to-client requests one connection may have pending. */
export const DEFAULT_MAX_PEER_REQUESTS = 64;
/**
 * Default {@link OutboundRequestsOptions.timeoutMs}: 5 minutes. A safety net against a client that never answers,
 * long enough for a person to answer an elicitation; a runtime that wants less passes its own signal.
 */
export const DEFAULT_PEER_REQUEST_TIMEOUT_MS = 300_000;

/** Options for {@link OutboundRequests}. */
export interface OutboundRequestsOptions {
  /** Writes one message (a request, or the `notifications/cancelled` that withdraws one) to the peer. */
  readonly send: (message: TransportRequest | TransportNotification) => void;
  /** Prefix of the ids this side assigns (`<prefix>1`, `<prefix>2`, …). @default 'srv-' */
  readonly idPrefix?: string;
  /**
   * Requests that may await a response at once; one more rejects at once with `TransportError('send_failed')`
   * and is not sent. @default 64
   */
  readonly maxPending?: number;
  /**
   * Milliseconds a request may await its response, counted from the send (progress does not extend it); then the
   * peer is sent `notifications/cancelled` and the request rejects with `TransportError('timeout')`. 0 disables.
   * @default 300000 (5 minutes)
   */
  readonly timeoutMs?: number;
  /** Receives non-fatal problems, such as a response naming no pending request (it is dropped). */
  readonly onError?: (error: Error) => void;
}

/**
 * The requests one side of a connection sends to its peer when it picks the ids itself (a 2025-era server's
 * `roots/list`, `sampling/createMessage`, `elicitation/create`, `ping`): assigns ids unique on the connection,
 * bounds how many are pending, times them out, and matches the peer's responses to them.
 *
 * Contract: a request resolves with the peer's response, an error response included. It rejects with
 * `TransportError('closed')` when one of its signals aborts (the peer is then sent `notifications/cancelled` naming
 * it) or after {@link failAll}; with `TransportError('timeout')` after `timeoutMs` (cancelled the same way). A
 * response naming no pending request (unknown, late, or already cancelled) is dropped and reported to `onError`.
 */
export class OutboundRequests {
  readonly #pending: PendingRequests;
  readonly #prefix: string;
  readonly #maxPending: number;
  readonly #timeoutMs: number;
  readonly #onError: ((error: Error) => void) | undefined;
  #next = 0;
  #closedError: TransportError | undefined;

  /** Creates the tracker with nothing pending; ids are `idPrefix` plus a counter. */
  constructor(options: OutboundRequestsOptions) {
    this.#pending = new PendingRequests({ send: options.send });
    this.#prefix = options.idPrefix ?? 'srv-';
    this.#maxPending = options.maxPending ?? DEFAULT_MAX_PEER_REQUESTS;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_PEER_REQUEST_TIMEOUT_MS;
    this.#onError = options.onError;
  }

  /** Requests awaiting a response. */
  get size(): number {
    return this.#pending.size;
  }

  /**
   * Sends `message` with a fresh id and resolves with the peer's response. Any of `signals` aborting (before or
   * after the send) cancels it; see the class contract.
   */
  request(message: OutboundRequest, signals: readonly (AbortSignal | undefined)[] = []): Promise<TransportResponse> {
    if (this.#closedError !== undefined) return Promise.reject(this.#closedError);
    if (signals.some((signal) => signal?.aborted)) {
      return Promise.reject(new TransportError('closed', 'The request was cancelled before it was sent'));
    }
    if (this.#pending.size >= this.#maxPending) {
      return Promise.reject(
        new TransportError(
          'send_failed',
          `Too many server-to-client requests awaiting a response on this connection (limit ${this.#maxPending})`,
        ),
      );
    }
    this.#next += 1;
    const id = `${this.#prefix}${this.#next}`;
    const controller = new AbortController();
    const cancel = (): void => controller.abort(new TransportError('closed', `Request ${id} was cancelled`));
    // The session's own signal is among them, shared by every request in flight: see onAbort.
    const offs = signals.map((signal) => (signal === undefined ? undefined : onAbort(signal, cancel)));
    const timer =
      this.#timeoutMs > 0
        ? setTimeout(() => {
            const reason = `No response to ${message.method} within ${this.#timeoutMs} ms`;
            controller.abort(new TransportError('timeout', reason));
          }, this.#timeoutMs)
        : undefined;
    const request: TransportRequest = {
      jsonrpc: '2.0',
      id,
      method: message.method,
      ...(message.params === undefined ? {} : { params: message.params }),
    };
    return this.#pending.request(request, { signal: controller.signal }).finally(() => {
      clearTimeout(timer);
      for (const off of offs) off?.();
    });
  }

  /** Routes one inbound response (a message without `method`, with `result` or `error`) to its request. */
  receive(response: Readonly<Record<string, unknown>>): void {
    const id = response.id;
    if ((typeof id === 'string' || typeof id === 'number') && this.#pending.has(id)) {
      this.#pending.receive(response);
      return;
    }
    this.#onError?.(new Error(`Dropped a response naming no pending request (id ${describeId(id)})`));
  }

  /** Rejects every pending request, and every later one, with `error`; nothing more is sent. Idempotent. */
  failAll(error: TransportError): void {
    this.#closedError ??= error;
    this.#pending.failAll(error);
  }
}

/** True for a JSON-RPC response: no `method`, and a `result` or an `error`. */
export function isResponse(message: unknown): message is Readonly<Record<string, unknown>> {
  return isRecord(message) && !('method' in message) && ('result' in message || 'error' in message);
}

function describeId(id: unknown): string {
  if (typeof id === 'string' || typeof id === 'number') return JSON.stringify(id);
  return id === null ? 'null' : 'missing';
}
