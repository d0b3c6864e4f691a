import type { TaskEvent, TaskListener, TaskOwner, TaskStore, Unsubscribe } from './taskStore.js';

/**
 * Fans one store change feed (`watch`) out to per-task listeners in this process: a task nobody listens to costs
 * nothing, and listening to a task is a map entry, not a store call. Events of another owner's task never reach a
 * listener (ownership is checked on every event).
 */
export class TaskEventRouter {
  readonly #store: TaskStore;
  readonly #listeners = new Map<string, Set<{ readonly owner: TaskOwner; readonly listener: TaskListener }>>();
  readonly #onError: (error: unknown) => void;
  #watching: Promise<Unsubscribe> | undefined;
  /** `#watching` without its value, made once: every wait asks for it. */
  #started: Promise<void> | undefined;

  constructor(store: TaskStore, onError: (error: unknown) => void) {
    this.#store = store;
    this.#onError = onError;
  }

  /** Starts watching the store (once); resolves when events flow. */
  start(): Promise<void> {
    if (this.#started === undefined) {
      this.#watching = this.#store.watch((event) => this.#dispatch(event));
      this.#started = this.#watching.then(() => undefined);
    }
    return this.#started;
  }

  /**
   * Calls `listener` with every later event of `owner`'s task `taskId`; synchronous, so listening before a write
   * cannot miss that write's event once {@link start} has resolved. The returned function stops it (idempotent).
   */
  listen(owner: TaskOwner, taskId: string, listener: TaskListener): Unsubscribe {
    let set = this.#listeners.get(taskId);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(taskId, set);
    }
    const entry = { owner, listener };
    set.add(entry);
    return () => {
      const current = this.#listeners.get(taskId);
      if (current?.delete(entry) && current.size === 0) this.#listeners.delete(taskId);
    };
  }

  /** Tasks with at least one listener (for leak checks). */
  get taskCount(): number {
    return this.#listeners.size;
  }

  /** Stops watching and forgets every listener. */
  async stop(): Promise<void> {
    this.#listeners.clear();
    const watching = this.#watching;
    this.#watching = undefined;
    this.#started = undefined;
    if (watching !== undefined) (await watching.catch(() => () => undefined))();
  }

  #dispatch(event: TaskEvent): void {
    const set = this.#listeners.get(event.record.taskId);
    if (set === undefined) return;
    if (set.size === 1) {
      // The common case (one wait on the task) without copying the set; entries added meanwhile wait their turn.
      const [entry] = set;
      if (entry !== undefined) this.#deliver(entry, event);
      return;
    }
    for (const entry of [...set]) {
      if (set.has(entry)) this.#deliver(entry, event);
    }
  }

  #deliver(entry: { readonly owner: TaskOwner; readonly listener: TaskListener }, event: TaskEvent): void {
    if (entry.owner !== event.record.owner) return;
    try {
      entry.listener(event);
    } catch (error) {
      this.#onError(error);
    }
  }
}
