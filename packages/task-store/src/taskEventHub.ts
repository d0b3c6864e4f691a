import type { TaskEvent, TaskListener } from './taskStore.js';

/**
 * Per-task listener sets with ordered delivery. Events are queued and drained one at a time, so a listener that
 * writes to the store (and so emits) never makes later listeners see events out of version order. Tasks nobody
 * listens to cost nothing here.
 */
export class TaskEventHub {
  readonly #listeners = new Map<string, Set<TaskListener>>();
  readonly #queue: Array<{ readonly taskId: string; readonly event: TaskEvent }> = [];
  readonly #onError: (error: unknown) => void;
  #draining = false;

  constructor(onError: (error: unknown) => void) {
    this.#onError = onError;
  }

  /** Adds `listener` for `taskId`; the returned function removes it (idempotent, releases the set when empty). */
  add(taskId: string, listener: TaskListener): () => void {
    let set = this.#listeners.get(taskId);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(taskId, set);
    }
    // A wrapper per subscription, so the same function subscribed twice is two independent subscriptions.
    const entry: TaskListener = (event) => listener(event);
    set.add(entry);
    return () => {
      const current = this.#listeners.get(taskId);
      if (current?.delete(entry) && current.size === 0) this.#listeners.delete(taskId);
    };
  }

  /** Number of tasks with at least one listener (for leak checks). */
  get taskCount(): number {
    return this.#listeners.size;
  }

  /** Delivers `event` to the task's listeners, after any events already being delivered. */
  emit(taskId: string, event: TaskEvent): void {
    if (!this.#listeners.has(taskId)) return;
    this.#queue.push({ taskId, event });
    if (this.#draining) return;
    this.#draining = true;
    try {
      for (let i = 0; i < this.#queue.length; i++) {
        const item = this.#queue[i] as { readonly taskId: string; readonly event: TaskEvent };
        const set = this.#listeners.get(item.taskId);
        if (set === undefined) continue;
        for (const listener of [...set]) {
          // A listener removed by an earlier one during this delivery must not be called.
          if (!set.has(listener)) continue;
          try {
            listener(item.event);
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

  /** Forgets every listener of `taskId` (after its final event). */
  drop(taskId: string): void {
    this.#listeners.delete(taskId);
  }

  /** Forgets every listener. */
  clear(): void {
    this.#listeners.clear();
  }
}
