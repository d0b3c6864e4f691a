import type { TaskRecord } from './taskRecord.js';

/** Options of {@link TaskOperations}. */
export interface TaskOperationsOptions {
  /** Epoch milliseconds, stamped on every write. @default Date.now */
  readonly now?: () => number;
  /** Receives exceptions thrown by listeners (and by `onWrite` and `onStoreCall`). @default console.error */
  readonly onListenerError?: (error: unknown) => void;
  /**
   * How long a task ended by {@link TaskOperations.complete}, `fail` or `cancel` stays in the store at most: the
   * terminal write shortens its `ttlMs` to the time since creation plus this, when that is sooner than its TTL.
   * `null` keeps finished tasks until their TTL. @default null
   */
  readonly keepFinishedMs?: number | null;
  /**
   * Told of every write these operations made: `before` is the record the transition was computed from
   * (undefined for a creation), `after` the record written. Each change is reported once, by the process that
   * wrote it (a lost race is retried, and only the write that won is told), so counting transitions here counts
   * each exactly once across instances sharing a store. Synchronous; keep it cheap. @default none
   */
  readonly onWrite?: (before: TaskRecord | undefined, after: TaskRecord) => void;
  /**
   * Told of every store call made through these operations' {@link TaskOperations.store} (which then wraps the
   * given store): the method's name, how long its promise took in ms, and whether it rejected. Any `TaskStore`
   * (and `DurableTaskStore`) method is timed, whichever store implements it. @default none: the store is used as is
   */
  readonly onStoreCall?: (operation: string, durationMs: number, failed: boolean) => void;
}
