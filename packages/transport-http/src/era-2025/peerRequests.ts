import {
  isRecord,
  type OutboundRequest,
  onAbort,
  type PeerRequestOptions,
  TransportError,
  type TransportNotification,
  type TransportRequest,
  type TransportRequestId,
  type TransportResponse,
} from '@mcp-tasks/protocol';

interface Pending {
  readonly resolve: (response: TransportResponse) => void;
  readonly reject: (error: TransportError) => void;
  readonly detach: () => void;
}

/**
 * The server-to-client requests of one session that await the client's answer: assigns their ids (integers,
 * unique within the session), routes a POSTed response back by id, and rejects what is left when the session ends.
 * At most `max` are pending at once; one more rejects with `TransportError('send_failed')` without being sent.
 */
export class PeerRequests {
  readonly #max: number;
  readonly #pending = new Map<TransportRequestId, Pending>();
  #nextId = 1;
  #closed = false;

  constructor(max: number) {
    this.#max = max;
  }

  /** How many requests await an answer. */
  get size(): number {
    return this.#pending.size;
  }

  /**
   * Gives `message` an id, hands it to `deliver` and resolves with the client's response. Aborting
   * `options.signal` rejects with `TransportError('closed')` and delivers `notifications/cancelled` naming it.
   */
  send(
    message: OutboundRequest,
    options: PeerRequestOptions | undefined,
    deliver: (message: TransportRequest | TransportNotification) => void,
  ): Promise<TransportResponse> {
    const signal = options?.signal;
    if (this.#closed) return Promise.reject(new TransportError('closed', 'The session has ended'));
    if (signal?.aborted === true) return Promise.reject(new TransportError('closed', 'The request was aborted'));
    if (this.#pending.size >= this.#max) {
      return Promise.reject(
        new TransportError('send_failed', `Too many requests awaiting the client (at most ${this.#max})`),
      );
    }
    const id = this.#nextId++;
    const request: TransportRequest =
      message.params === undefined
        ? { jsonrpc: '2.0', id, method: message.method }
        : { jsonrpc: '2.0', id, method: message.method, params: message.params };
    return new Promise<TransportResponse>((resolve, reject) => {
      const off =
        signal === undefined
          ? undefined
          : onAbort(signal, () => {
              if (!this.#pending.delete(id)) return;
              reject(new TransportError('closed', 'The request was aborted'));
              deliver({
                jsonrpc: '2.0',
                method: 'notifications/cancelled',
                params: { requestId: id, reason: 'aborted' },
              });
            });
      this.#pending.set(id, { resolve, reject, detach: () => off?.() });
      deliver(request);
    });
  }

  /** Settles the pending request a POSTed response names. Returns false for a response to nothing pending. */
  settle(response: unknown): boolean {
    if (!isRecord(response)) return false;
    const id = response.id;
    if (typeof id !== 'string' && typeof id !== 'number') return false;
    const pending = this.#pending.get(id);
    if (pending === undefined) return false;
    this.#pending.delete(id);
    pending.detach();
    pending.resolve(response as TransportResponse);
    return true;
  }

  /** Rejects one pending request (it could not be delivered). */
  fail(id: TransportRequestId, error: TransportError): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#pending.delete(id);
    pending.detach();
    pending.reject(error);
  }

  /** Rejects every pending request with `TransportError('closed')`, and every later one. Idempotent. */
  close(): void {
    this.#closed = true;
    for (const id of [...this.#pending.keys()]) this.fail(id, new TransportError('closed', 'The session has ended'));
  }
}
