/**
 * The client's task scheduling decisions as plain code: when to poll next, which input requests still need an
 * answer, and when to give up. No I/O and no timers: the caller feeds it every observed task state together with
 * the current time and acts on the returned decision, so the rules are testable without a transport.
 */

/** Knobs for driving a task. Every field has a default; see each one. */
export interface PollingOptions {
  /** Delay between polls when the server sends no `pollIntervalMs`. @default 1000 */
  readonly defaultIntervalMs?: number;
  /** Floor for the server's `pollIntervalMs`, so a server sending 0 cannot cause a busy loop. @default 100 */
  readonly minIntervalMs?: number;
  /** Cap for the server's `pollIntervalMs`, so a huge value cannot stall the client. @default 30000 */
  readonly maxIntervalMs?: number;
  /**
   * Consecutive observations in `input_required` with nothing left to answer (every key already answered) after
   * which the task counts as stuck. @default 60
   */
  readonly stuckAfterPolls?: number;
  /** Give up once `createdAt + ttlMs` has passed without a terminal status. @default true */
  readonly honourTtl?: boolean;
}

/** The fields of a task state the tracker looks at (a structural subset of `DetailedTask`). */
export interface TrackedTaskState {
  /** The task's status as observed. */
  readonly status: string;
  /** When the task was created (ISO 8601). */
  readonly createdAt: string;
  /** The task's lifetime from creation in ms; `null` for unlimited. */
  readonly ttlMs: number | null;
  /** The server's suggested polling interval in ms, if any. */
  readonly pollIntervalMs?: number | undefined;
  /** Outstanding input requests by key, present while the task is `input_required`. */
  readonly inputRequests?: Readonly<Record<string, unknown>> | undefined;
}

/** What to do after observing a task state. */
export type TrackerDecision =
  /** The task is terminal: map it to the outcome. */
  | {
      /** Map the terminal task to the outcome. */
      readonly action: 'finish';
    }
  /** Answer these not-yet-answered keys in one `tasks/update`, then observe again after `delayMs`. */
  | {
      /** Answer, then observe again. */
      readonly action: 'answer';
      /** The input keys not answered yet, in the task's order. */
      readonly keys: readonly string[];
      /** When to observe again, in ms. */
      readonly delayMs: number;
    }
  /** Observe again after `delayMs`. */
  | {
      /** Observe again. */
      readonly action: 'poll';
      /** When, in ms. */
      readonly delayMs: number;
    }
  /** Stop driving the task: it is stuck in `input_required`, or past its TTL backstop. */
  | {
      /** Stop driving the task. */
      readonly action: 'give_up';
      /** `stuck` in `input_required` with everything answered, or `expired` past its TTL. */
      readonly reason: 'stuck' | 'expired';
    };

/** The statuses after which a task never changes. */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** Resolved polling options with every default applied. */
export type ResolvedPollingOptions = Required<PollingOptions>;

/** Applies the documented defaults. Throws a RangeError on nonsensical values (negative, or min above max). */
export function resolvePollingOptions(options: PollingOptions = {}): ResolvedPollingOptions {
  const resolved: ResolvedPollingOptions = {
    defaultIntervalMs: options.defaultIntervalMs ?? 1000,
    minIntervalMs: options.minIntervalMs ?? 100,
    maxIntervalMs: options.maxIntervalMs ?? 30_000,
    stuckAfterPolls: options.stuckAfterPolls ?? 60,
    honourTtl: options.honourTtl ?? true,
  };
  if (resolved.minIntervalMs < 0 || resolved.minIntervalMs > resolved.maxIntervalMs) {
    throw new RangeError('polling: minIntervalMs must be >= 0 and <= maxIntervalMs');
  }
  if (resolved.stuckAfterPolls < 1) throw new RangeError('polling: stuckAfterPolls must be >= 1');
  return resolved;
}

/** The delay before the next poll: the latest `pollIntervalMs`, else the default, clamped to [min, max]. */
export function pollDelay(task: Pick<TrackedTaskState, 'pollIntervalMs'>, options: ResolvedPollingOptions): number {
  const wanted = task.pollIntervalMs ?? options.defaultIntervalMs;
  return Math.min(options.maxIntervalMs, Math.max(options.minIntervalMs, wanted));
}

/**
 * Tracks one task across observations. Create one per drive of a task; it remembers which input keys were handed
 * out for answering, so each key is answered at most once however often polls repeat it, and counts
 * consecutive observations that leave nothing to do while the task waits for input.
 */
export class TaskTracker {
  readonly #options: ResolvedPollingOptions;
  readonly #answered = new Set<string>();
  #idleInputPolls = 0;

  /** Creates a tracker for one task, with nothing answered yet. */
  constructor(options: ResolvedPollingOptions) {
    this.#options = options;
  }

  /**
   * Decides what to do after observing `task` at time `nowMs`. Keys returned in an `answer` decision count as
   * answered from then on: the caller answers each exactly once (a failed answer is not retried by key).
   */
  observe(task: TrackedTaskState, nowMs: number): TrackerDecision {
    if (TERMINAL_STATUSES.has(task.status)) return { action: 'finish' };
    if (this.#options.honourTtl && task.ttlMs !== null) {
      const created = Date.parse(task.createdAt);
      if (Number.isFinite(created) && nowMs >= created + task.ttlMs) return { action: 'give_up', reason: 'expired' };
    }
    const delayMs = pollDelay(task, this.#options);
    if (task.status !== 'input_required') {
      this.#idleInputPolls = 0;
      return { action: 'poll', delayMs };
    }
    const keys = Object.keys(task.inputRequests ?? {}).filter((key) => !this.#answered.has(key));
    if (keys.length > 0) {
      this.#idleInputPolls = 0;
      for (const key of keys) this.#answered.add(key);
      return { action: 'answer', keys, delayMs };
    }
    this.#idleInputPolls += 1;
    if (this.#idleInputPolls >= this.#options.stuckAfterPolls) return { action: 'give_up', reason: 'stuck' };
    return { action: 'poll', delayMs };
  }

  /** Keys already handed out for answering, in the order they were first seen. */
  get answeredKeys(): readonly string[] {
    return [...this.#answered];
  }
}
