/**
 * Durable execution at the store level: a task's work recorded as named steps, parked while it waits for input,
 * and claimed by any worker of any instance. A store that implements {@link DurableTaskStore} lets a task's work
 * outlive the process that started it.
 *
 * The life of durable work (`TaskRecord.execution`):
 * - `queued`: runnable; any worker may claim it once `notBefore` (retry backoff) has passed. A task created with
 *   `durable: true` and no lease starts here, and so does one handed back by a draining worker or woken by the
 *   answer to its last outstanding input request.
 * - `running`: a worker holds the lease. When the lease runs out (the worker was lost) the task is runnable again,
 *   with no sweep in between: `claim` takes it like a queued one.
 * - `parked`: waiting for input with no worker: no lease, nothing in any process. Accepting answers that leave no
 *   request outstanding moves it to `queued` in the same write.
 *
 * @module
 */

import { isTerminalStatus, type TaskOwner, type TaskRecord, type TaskStore } from './taskStore.js';

/** A step's result: any JSON value (objects, arrays, strings, numbers, booleans, `null`). */
export type StepValue = unknown;

/** One completed step of a task, as stored. */
export interface StepRecord {
  /** The step's name, unique within the task. */
  readonly name: string;
  /** The execution attempt that completed it (`TaskExecution.attempt` of the writer). */
  readonly attempt: number;
  /** The step's JSON result, deep-frozen. */
  readonly result: StepValue;
  /** ISO 8601, when it was recorded. */
  readonly completedAt: string;
}

/** What `recordStep` writes. */
export interface RecordStepInput {
  /** The step's name: 1 to {@link MAX_STEP_NAME_LENGTH} characters. */
  readonly name: string;
  /** The writer's execution attempt (recorded with the step, so re-runs are visible). */
  readonly attempt: number;
  /** A JSON value; its `JSON.stringify` text counts against the size limits. `undefined` is refused. */
  readonly result: StepValue;
}

/** Outcome of `recordStep`. */
export type RecordStepResult =
  | {
      /** The step is recorded (by this call, or earlier). */
      readonly ok: true;
      /**
       * `true` when this call wrote it; `false` when the name was already recorded: the stored step stands (the
       * first write wins, whatever the attempt) and is returned, so every run of the task sees one result per name.
       */
      readonly fresh: boolean;
      /** The stored step. */
      readonly step: StepRecord;
    }
  | {
      /**
       * Nothing written: the task is unknown, expired, another owner's or terminal, `worker` does not hold its
       * lease (another worker claimed it: the caller must stop), or `attempt` is not the task's current run (a
       * claim by the same worker took it over from an older run, which must stop too).
       */
      readonly ok: false;
    };

/** What `claim` takes. */
export interface ClaimOptions {
  /** The claiming worker's id; the claimed tasks' lease names it. */
  readonly worker: string;
  /** Most tasks to claim (a positive integer): the worker's free capacity under its concurrency limit. */
  readonly limit: number;
  /** Lease length in ms from `now`; the worker renews it while it runs the task. */
  readonly leaseMs: number;
  /** Epoch ms: the time claimability is judged at. */
  readonly now: number;
}

/** The longest step name, in UTF-16 code units. */
export const MAX_STEP_NAME_LENGTH = 200;

/** Default of `TaskStoreLimits.maxStepBytes`: 1 MiB per step result. */
export const DEFAULT_MAX_STEP_BYTES = 1_048_576;

/** Default of `TaskStoreLimits.maxStepBytesPerTask`: 8 MiB of step results per task. */
export const DEFAULT_MAX_STEP_BYTES_PER_TASK = 8_388_608;

/**
 * A `TaskStore` that keeps durable work: step results, parked tasks and a claimable queue. Both built-in stores
 * implement it (in memory: within the process; PostgreSQL: durable across every instance).
 */
export interface DurableTaskStore extends TaskStore {
  /**
   * Records a completed step of a task whose lease `worker` holds, before the tool goes on: one write (one round
   * trip on a database). Idempotent per step name: a name already recorded returns the stored step with
   * `fresh: false` and writes nothing. Rejects with `TaskStoreError` `step_limit` when the result's JSON exceeds
   * `maxStepBytes`, or the task's step results together would exceed `maxStepBytesPerTask`; `invalid_argument` for
   * an empty or too long name, a non-integer attempt or a result that is not JSON (`undefined`, a function, a cycle).
   */
  recordStep(owner: TaskOwner, taskId: string, worker: string, step: RecordStepInput): Promise<RecordStepResult>;
  /**
   * Every completed step of the task, in the order they were recorded; empty for an unknown, expired or another
   * owner's task. Steps stay readable after the task ends, until it expires.
   */
  steps(owner: TaskOwner, taskId: string): Promise<readonly StepRecord[]>;
  /**
   * Claims up to `limit` runnable tasks of any owner (queued with `notBefore` passed, or running with a lease run
   * out at or before `now`), oldest runnable first: each becomes `running` with `attempt + 1` and a lease of
   * `worker` until `now + leaseMs`, written and announced like any change. Concurrent claims from any number of
   * instances never take the same task twice while a lease holds. Clients see no change (`lastUpdatedAt` stays).
   */
  claim(options: ClaimOptions): Promise<readonly TaskRecord[]>;
}

/** True when `store` implements the durable-execution methods. */
export function isDurableTaskStore(store: TaskStore): store is DurableTaskStore {
  const durable = store as Partial<DurableTaskStore>;
  return (
    typeof durable.recordStep === 'function' &&
    typeof durable.steps === 'function' &&
    typeof durable.claim === 'function'
  );
}

/**
 * Epoch ms from which a task is claimable, or `null` when no worker may claim it (not durable, parked, terminal).
 * Both stores index this value.
 */
export function runnableAt(record: TaskRecord): number | null {
  const execution = record.execution;
  if (execution === undefined || isTerminalStatus(record.status)) return null;
  if (execution.state === 'queued') return execution.notBefore ?? 0;
  if (execution.state === 'running') return record.lease?.until ?? 0;
  return null;
}
