import { ClaimingWorker } from './claimingWorker.js';
import type { ExecutionEvent } from './durableCall.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retryPolicy.js';
import type { TaskExecutor } from './taskExecutor.js';

/**
 * The defaults of {@link ExecutionOptions} (part of `SERVER_DEFAULTS`); each is documented on its option. The built-in
 * worker's `concurrency` and `claimIntervalMs` defaults are the `ClaimingWorker`'s.
 */
export const EXECUTION_DEFAULTS = Object.freeze({
  parkAfterMs: 5_000,
});

/**
 * What this instance does with `durable` tools' work:
 * - `both` (the default): runs the calls it takes at once, and claims runnable tasks from the store (new, woken by
 *   an answer, handed back by a draining instance, or of a lost worker);
 * - `front`: only queues the tasks of the calls it takes (and serves `tasks/*`), leaving the work to workers;
 * - `worker`: like `both`; a deployment gives workers no client traffic (the sample server then opens no port).
 */
export type ExecutionRole = 'front' | 'worker' | 'both';

/** Durable execution settings (`durable` tools). */
export interface ExecutionOptions {
  /** @default 'both' */
  readonly role?: ExecutionRole;
  /**
   * How long a durable task's question waits in memory for its answer before the task is parked: released from
   * this process entirely (closure, signal, lease), to be woken by the answer on any instance. @default 5_000
   */
  readonly parkAfterMs?: number;
  /** How a step that throws a `RetryableError` is tried again. @default DEFAULT_RETRY_POLICY (5 attempts, 1 s doubling to 60 s) */
  readonly retry?: Partial<RetryPolicy>;
  /**
   * Runs the claimed work; replaces the built-in `ClaimingWorker` (see `TaskExecutor`). Not started for a `front`.
   * @default a ClaimingWorker with `concurrency` and `claimIntervalMs`
   */
  readonly executor?: TaskExecutor;
  /** Most claimed tasks the built-in worker runs at once. @default 16 */
  readonly concurrency?: number;
  /** How often the built-in worker claims when no write told it of new work. @default 1_000 */
  readonly claimIntervalMs?: number;
  /** Receives what the durable runtime does (steps, retries, parking, hand-backs, claims), for logs and metrics. */
  readonly onEvent?: (event: ExecutionEvent) => void;
}

/** {@link ExecutionOptions} with defaults applied. */
export interface ResolvedExecutionOptions {
  readonly role: ExecutionRole;
  readonly parkAfterMs: number;
  readonly retry: RetryPolicy;
  readonly executor: TaskExecutor;
  readonly onEvent: (event: ExecutionEvent) => void;
}

/** {@link ExecutionOptions} with {@link EXECUTION_DEFAULTS} applied; `report` gets the built-in worker's claim errors. */
export function resolveExecutionOptions(
  execution: ExecutionOptions | undefined,
  report: (error: unknown) => void,
): ResolvedExecutionOptions {
  return {
    role: execution?.role ?? 'both',
    parkAfterMs: Math.max(0, execution?.parkAfterMs ?? EXECUTION_DEFAULTS.parkAfterMs),
    retry: Object.freeze({ ...DEFAULT_RETRY_POLICY, ...execution?.retry }),
    executor:
      execution?.executor ??
      new ClaimingWorker({
        ...(execution?.concurrency === undefined ? {} : { concurrency: execution.concurrency }),
        ...(execution?.claimIntervalMs === undefined ? {} : { claimIntervalMs: execution.claimIntervalMs }),
        onError: report,
      }),
    onEvent: execution?.onEvent ?? (() => undefined),
  };
}
