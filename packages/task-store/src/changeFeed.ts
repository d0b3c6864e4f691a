import type { TaskEvent, TaskListener } from './taskStore.js';

/**
 * The listeners of a store's change feed, with ordered delivery: events are queued and drained one at a time, so
 * a listener that writes to the store (and so emits) never makes later listeners see events out of version order.
 * With no listener an event costs one length check.
 */
export class ChangeFeed {
  #listeners: readonly TaskListener[] = [];
  readonly #queue: TaskEvent[] = [];
  readonly #onError: (error: unknown) => void;
  #draining = false;

  constructor(onError: (error: unknown) => void) {
    this.#onError = onError;
  }

  /** Adds `listener`; the returned function removes it (idempotent). The same function added twice is two. */
  add(listener: TaskListener): () => void {
    const entry: TaskListener = (event) => listener(event);
    this.#listeners = [...this.#listeners, entry];
    return () => {
      this.#listeners = this.#listeners.filter((other) => other !== entry);
    };
  }

  /** Number of listeners (for leak checks). */
  get size(): number {
    return this.#listeners.length;
  }

  /** Delivers `event` to every listener, after any events already being delivered. */
  emit(event: TaskEvent): void {
    if (this.#listeners.length === 0) return;
    this.#queue.push(event);
    if (this.#draining) return;
    this.#draining = true;
    try {
      for (let i = 0; i < this.#queue.length; i++) {
        const item = this.#queue[i] as TaskEvent;
        const listeners = this.#listeners;
        for (const listener of listeners) {
          // A listener removed by an earlier one during this delivery must not be called.
          if (listeners !== this.#listeners && !this.#listeners.includes(listener)) continue;
          try {
            listener(item);
          } catch (error) {
            this.#onError(error);
          }
        }
      }
    } finally {
      this.#queue.length = 0;
      this.#draining = false;
    }
  }

  /** Forgets every listener. */
  clear(): void {
    this.#listeners = [];
  }
}
