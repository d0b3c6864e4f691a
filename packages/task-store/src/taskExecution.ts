/** The execution part of a durable task's record; see `DurableTaskStore` for the life it describes. */

/** Where a durable task's work stands; see the module description. */
export type ExecutionState = 'queued' | 'running' | 'parked';

/** The execution part of a durable task's record (absent on tasks whose work lives in one process only). */
export interface TaskExecution {
  /** Whether the work waits for a worker, runs on one, or waits for input with none. */
  readonly state: ExecutionState;
  /** How many times a worker has taken the work (the first run is attempt 1); 0 while never claimed. */
  readonly attempt: number;
  /** Epoch ms before which a queued task is not claimed (retry backoff); absent = at once. */
  readonly notBefore?: number;
  /**
   * The steps completed so far, in order (the first {@link MAX_LISTED_STEPS}; later ones are in `steps()` only):
   * what a client's timeline shows. Absent until the first step completes.
   */
  readonly steps?: readonly ExecutionStep[];
}

/** Most steps a task's record lists in `TaskExecution.steps`. */
export const MAX_LISTED_STEPS = 100;

/** A completed step as the task's record lists it (its result lives in the store's step log). */
export interface ExecutionStep {
  /** The step's name. */
  readonly name: string;
  /** The run of the task's work that completed it: a step completed by a later run than 1 shows a re-run. */
  readonly attempt: number;
}
