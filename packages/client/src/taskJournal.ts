/**
 * Durable memory of the tasks a client is driving, so a process that restarts can list what was pending and
 * resume it with `McpClient.resumeTask`.
 */

/** One pending task and the call that created it. Plain JSON, so any store can persist it. */
export interface TaskJournalEntry {
  /** The task id from the `CreateTaskResult`. */
  readonly taskId: string;
  /** The method that created the task (today always `tools/call`). */
  readonly method: string;
  /** The tool name the task runs. */
  readonly name: string;
  /** The tool arguments the call carried, if any. */
  readonly arguments?: Readonly<Record<string, unknown>> | undefined;
  /** When the client recorded the task (ISO 8601, client clock). */
  readonly recordedAt: string;
}

/**
 * Where the client records pending tasks. The client calls `add` once a `CreateTaskResult` arrives, before it
 * starts polling (`startTool` adds and then polls nothing: the entry waits for `resumeTask`), and `remove` when it
 * stops driving the task for good: a terminal status, a cancel it sent, a `-32602` not-found, or giving up (stuck,
 * expired). It does not remove on transport failures, so those tasks can be resumed. Implementations may be async;
 * the client awaits every call. `add` for an id already present replaces the entry; `remove` of an unknown id is a
 * no-op.
 */
export interface TaskJournal {
  /** Records a pending task; an entry for the same `taskId` is replaced. */
  add(entry: TaskJournalEntry): void | Promise<void>;
  /** Forgets a task the client stopped driving for good; an unknown id is a no-op. */
  remove(taskId: string): void | Promise<void>;
  /** The pending entries, oldest first. */
  list(): readonly TaskJournalEntry[] | Promise<readonly TaskJournalEntry[]>;
}

/** A journal that lives as long as the process: enough for tests and for browsers without storage. */
export class InMemoryTaskJournal implements TaskJournal {
  readonly #entries = new Map<string, TaskJournalEntry>();

  add(entry: TaskJournalEntry): void {
    this.#entries.delete(entry.taskId);
    this.#entries.set(entry.taskId, entry);
  }

  remove(taskId: string): void {
    this.#entries.delete(taskId);
  }

  list(): readonly TaskJournalEntry[] {
    return [...this.#entries.values()];
  }
}
