/**
 * Parsed messages in arrival order, for writing a `RawChannel`: push what the server sent, `next()` waits
 * for the oldest one not yet taken.
 */
export class MessageQueue {
  readonly #items: unknown[] = [];
  readonly #waiters: Array<(message: unknown) => void> = [];

  /** Hands `message` to the oldest waiting `next()`, or keeps it for the next call. */
  push(message: unknown): void {
    const waiter = this.#waiters.shift();
    if (waiter === undefined) this.#items.push(message);
    else waiter(message);
  }

  /** Resolves with the oldest message not yet taken, waiting for one when there is none. */
  next(): Promise<unknown> {
    if (this.#items.length > 0) return Promise.resolve(this.#items.shift());
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}
