/**
 * The part of a response sink that learns when the client goes away, started only once both are true: someone needs
 * to know ({@link ClientWatch.watchClient}: the runtime read `context.signal`, the answer streams, or the exchange is
 * a 2025-era one) and the front has said how to watch ({@link ClientWatch.arm}). Either may come first: the runtime
 * runs as soon as a message is dispatched, before the front has the exchange it returns. Most requests are answered
 * at once and never need either, and watching costs a listener (node:http) or an `AbortController` (fetch adapters).
 */
export abstract class ClientWatch {
  #wanted = false;
  #armed = false;
  #started = false;

  /** Someone needs to learn that the client went away. Idempotent. */
  watchClient(): void {
    this.#wanted = true;
    if (this.#started || !this.#armed) return;
    this.#started = true;
    this.startWatching();
  }

  /** The front can now watch ({@link ClientWatch.startWatching} has what it needs). */
  protected arm(): void {
    this.#armed = true;
    if (this.#wanted) this.watchClient();
  }

  /** Starts watching; called at most once. */
  protected abstract startWatching(): void;
}
