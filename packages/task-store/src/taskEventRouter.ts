import type { TaskEvent, TaskListener, TaskOwner, TaskStore, Unsubscribe } from './taskStore.js';

interface Entry {
  readonly owner: TaskOwner;
  readonly listener: TaskListener;
}

/**
 * Fans one store change feed (`watch`) out to per-task listeners in this process: a task nobody listens to costs
 * nothing, and listening to a task is a map entry, not a store call. Events of another owner's task never reach a
 * listener (ownership is checked on every event).
 */
export class TaskEventRouter {
  readonly #store: TaskStore;
  /**
   * A task's one listener as is, or its listeners in order when there are several. Most listened tasks have one or
   * two (the running tool, a listen stream): a Set per task cost about 200 bytes of heap each, for every waiting task.
   */
  readonly #listeners = new Map<string, Entry | Entry[]>();
  /** Listeners of every task, for consumers that index tasks themselves (one listener, no entry per task). */
  #everyTask: readonly TaskListener[] = [];
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
    const entry: Entry = { owner, listener };
    this.#add(taskId, entry);
    return () => this.#remove(taskId, entry);
  }

  /**
   * {@link listen} to each of `taskIds` with one listener: one entry and one closure for all of them, not one per
   * task. The returned function stops it for every task (idempotent).
   */
  listenMany(owner: TaskOwner, taskIds: readonly string[], listener: TaskListener): Unsubscribe {
    const entry: Entry = { owner, listener };
    for (const taskId of taskIds) this.#add(taskId, entry);
    return () => {
      for (const taskId of taskIds) this.#remove(taskId, entry);
    };
  }

  #add(taskId: string, entry: Entry): void {
    const current = this.#listeners.get(taskId);
    if (current === undefined) this.#listeners.set(taskId, entry);
    else if (Array.isArray(current)) this.#listeners.set(taskId, [...current, entry]);
    else this.#listeners.set(taskId, [current, entry]);
  }

  /**
   * Calls `listener` with every later event of every task, whatever its owner (the listener checks ownership);
   * before the task's own listeners. The returned function stops it (idempotent).
   */
  listenAll(listener: TaskListener): Unsubscribe {
    this.#everyTask = [...this.#everyTask, listener];
    return () => {
      this.#everyTask = this.#everyTask.filter((other) => other !== listener);
    };
  }

  #remove(taskId: string, entry: Entry): void {
    const current = this.#listeners.get(taskId);
    if (current === entry) {
      this.#listeners.delete(taskId);
    } else if (Array.isArray(current)) {
      const index = current.indexOf(entry);
      if (index < 0) return;
      // Arrays are replaced, never changed in place: a dispatch may be iterating over this one.
      const rest = current.filter((other) => other !== entry);
      this.#listeners.set(taskId, rest.length === 1 ? (rest[0] as Entry) : rest);
    }
  }

  #has(taskId: string, entry: Entry): boolean {
    const current = this.#listeners.get(taskId);
    return current === entry || (Array.isArray(current) && current.includes(entry));
  }

  /** Tasks with at least one listener (for leak checks). */
  get taskCount(): number {
    return this.#listeners.size;
  }

  /** Stops watching and forgets every listener. */
  async stop(): Promise<void> {
    this.#listeners.clear();
    this.#everyTask = [];
    const watching = this.#watching;
    this.#watching = undefined;
    this.#started = undefined;
    if (watching !== undefined) (await watching.catch(() => () => undefined))();
  }

  #dispatch(event: TaskEvent): void {
    // Replaced, never changed in place; as for a task's listeners, one removed meanwhile is skipped.
    const everyTask = this.#everyTask;
    for (const listener of everyTask) {
      if (everyTask === this.#everyTask || this.#everyTask.includes(listener)) this.#call(listener, event);
    }
    const { taskId } = event.record;
    const current = this.#listeners.get(taskId);
    if (current === undefined) return;
    // Entries added meanwhile wait for the next event; entries removed meanwhile are skipped.
    if (!Array.isArray(current)) {
      this.#deliver(current, event);
      return;
    }
    for (const entry of current) {
      if (this.#has(taskId, entry)) this.#deliver(entry, event);
    }
  }

  #deliver(entry: Entry, event: TaskEvent): void {
    if (entry.owner === event.record.owner) this.#call(entry.listener, event);
  }

  #call(listener: TaskListener, event: TaskEvent): void {
    try {
      listener(event);
    } catch (error) {
      this.#onError(error);
    }
  }
}
