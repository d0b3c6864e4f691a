/** One request in flight across a linked pair, and the JSON copies that cross the link. */
import type {
  ClientRequestOptions,
  TransportNotification,
  TransportRequestId,
  TransportResponse,
} from '@mcp-tasks/protocol';
import { TransportError } from '@mcp-tasks/protocol';

/** Reports a contract violation of the handler (`LinkedPairOptions.onError`). */
export type Report = (message: string, cause?: unknown) => void;

/**
 * One request in flight across the link: the controller of its handler context, and one delivery chain that keeps
 * its notifications in `notify` call order and all of them ahead of its response. Registered in `pending` (and on
 * the caller's signal) from creation until {@link finish}.
 */
export class LinkedRequest {
  readonly controller = new AbortController();
  /** True once nothing more may reach the client for this request (answered, aborted, cancelled or closed). */
  finished = false;
  readonly #id: TransportRequestId;
  readonly #pending: Map<TransportRequestId, LinkedRequest>;
  readonly #options: ClientRequestOptions;
  readonly #resolve: (response: TransportResponse) => void;
  readonly reject: (error: unknown) => void;
  readonly #report: Report;
  #delivery: Promise<void> = Promise.resolve();

  constructor(
    id: TransportRequestId,
    pending: Map<TransportRequestId, LinkedRequest>,
    options: ClientRequestOptions,
    settle: { resolve: (response: TransportResponse) => void; reject: (error: unknown) => void },
    report: Report,
  ) {
    this.#id = id;
    this.#pending = pending;
    this.#options = options;
    this.#resolve = settle.resolve;
    this.reject = settle.reject;
    this.#report = report;
    pending.set(id, this);
    options.signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** Marks the request finished and releases its listener on the caller's signal. */
  finish(): void {
    this.finished = true;
    if (this.#pending.get(this.#id) === this) this.#pending.delete(this.#id);
    this.#options.signal?.removeEventListener('abort', this.#onAbort);
  }

  /** The caller aborted: reject at once with its reason and abort the handler's context. */
  readonly #onAbort = (): void => {
    if (this.finished) return;
    this.finish();
    this.controller.abort(new DOMException('The client aborted the request', 'AbortError'));
    this.reject(this.#options.signal?.reason);
  };

  /** The handler's `context.notify` for this request: a JSON copy to `onNotification`, dropped once finished. */
  readonly notify = (notification: TransportNotification): void => {
    if (this.finished || this.controller.signal.aborted) return;
    let copy: TransportNotification;
    try {
      copy = wireCopy(notification);
    } catch (error) {
      this.#report('Dropped a notification that is not serializable as JSON', error);
      return;
    }
    this.#delivery = this.#delivery.then(() => {
      if (this.finished) return;
      try {
        this.#options.onNotification?.(copy);
      } catch {
        // A throwing callback must not break delivery of the rest of this request.
      }
    });
  };

  /** Settles the request with the handler's answer, after its notifications; dropped once finished or aborted. */
  answer(response: TransportResponse | undefined): Promise<void> {
    const answer = toWire(response, this.#id, this.#report);
    this.#delivery = this.#delivery.then(() => {
      if (this.finished || this.controller.signal.aborted) return;
      this.finish();
      if (answer instanceof TransportError) this.reject(answer);
      else this.#resolve(answer);
    });
    return this.#delivery;
  }
}

/** What crosses the link: a fresh JSON copy. Throws when `value` is not serializable (cycles, BigInt). */
export function wireCopy<T>(value: T): T {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('Not representable as JSON');
  return JSON.parse(text) as T;
}

/** The client's view of a handler's answer: a JSON copy, or a transport error when none could be produced. */
function toWire(
  response: TransportResponse | undefined,
  id: TransportRequestId,
  report: Report,
): TransportResponse | TransportError {
  if (response === undefined) {
    report('The handler resolved a request with no response');
    return new TransportError('malformed_frame', 'The server sent no response to the request');
  }
  try {
    return wireCopy(response);
  } catch (error) {
    // A server session would fail to write this frame and answer -32603 instead.
    report('The response is not serializable as JSON; answered -32603', error);
    return { jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error' } };
  }
}
