/** Options of {@link TaskOperations}. */
export interface TaskOperationsOptions {
  /** Epoch milliseconds, stamped on every write. @default Date.now */
  readonly now?: () => number;
  /** Receives exceptions thrown by listeners. @default console.error */
  readonly onListenerError?: (error: unknown) => void;
  /**
   * How long a task ended by {@link TaskOperations.complete}, `fail` or `cancel` stays in the store at most: the
   * terminal write shortens its `ttlMs` to the time since creation plus this, when that is sooner than its TTL.
   * `null` keeps finished tasks until their TTL. @default null
   */
  readonly keepFinishedMs?: number | null;
}
