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
}
