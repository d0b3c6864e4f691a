/** Why the runtime aborted a tool's signal. */
export type TaskAbortKind =
  /** `tasks/cancel` (here or on another instance sharing the store). */
  | 'cancelled'
  /** The task's TTL elapsed and the store removed it. */
  | 'expired'
  /** `McpServer.close()`. */
  | 'shutdown'
  /** This instance could not renew the task's lease (the store was unreachable, or another instance took over). */
  | 'lease_lost'
  /**
   * A durable task waited for input longer than `execution.parkAfterMs` (or its server drains): it is parked in the
   * store, and the answer wakes it on whichever worker claims it, which runs the tool again, replaying its steps.
   */
  | 'parked'
  /**
   * A durable task was handed back to the store for another run: its server drains, or a step threw a
   * `RetryableError`. A worker (any instance) runs the tool again, replaying the steps that completed.
   */
  | 'handed_back';

/**
 * The reason a tool's `ctx.signal` carries when the runtime aborts it: an `Error` (so `signal.throwIfAborted()`
 * throws something useful) with a `kind` to match on instead of the message. A caller that gave up on a request
 * aborts with the transport's own reason instead.
 */
export class TaskAbortError extends Error {
  /** Always `'TaskAbortError'`. */
  override readonly name = 'TaskAbortError';
  /** Why the runtime aborted the tool; match on it rather than on the message. */
  readonly kind: TaskAbortKind;

  /** Creates the reason a tool's signal is aborted with. */
  constructor(kind: TaskAbortKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

/** True when `reason` is a {@link TaskAbortError}, optionally of the given kind. */
export function isTaskAbort(reason: unknown, kind?: TaskAbortKind): reason is TaskAbortError {
  return reason instanceof TaskAbortError && (kind === undefined || reason.kind === kind);
}
