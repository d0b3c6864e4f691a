import type { TransportClosed } from '@mcp-tasks/protocol';

/**
 * The `closed` promise a `ClientTransport` exposes, and the one place that settles it. Every client transport
 * has the same rule: the first way the connection ends (a local `close()` or the peer going away) is the one
 * reported, and it is reported exactly once.
 *
 * @example
 * readonly #close = new CloseSignal();
 * readonly closed = this.#close.closed;
 * // on child exit:  this.#close.settle({ initiator: 'remote', error });
 * // in close():     this.#close.settle({ initiator: 'local' });
 */
export class CloseSignal {
  /** Resolves with the first {@link settle} call's value; never rejects. */
  readonly closed: Promise<TransportClosed>;
  #resolve: (info: TransportClosed) => void = () => {};
  #settled = false;

  /** Creates an unsettled signal. */
  constructor() {
    this.closed = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  /** True once {@link settle} ran. */
  get isSettled(): boolean {
    return this.#settled;
  }

  /** Settles {@link closed} with `info`. Returns false, changing nothing, when it was already settled. */
  settle(info: TransportClosed): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    this.#resolve(info);
    return true;
  }
}
