import type { TaskRecord } from '@mcp-tasks/task-store';
import { parseRecord } from './rows.js';

/** Most distinct task ids one statement carries; more pending gets go out in further statements. */
export const MAX_GET_BATCH = 128;

/** How the batcher reaches the database; both reject with errors mapped as the store reports them. */
export interface GetStatements {
  /** The batched select: `ids` the distinct task ids, `owners` the distinct owners (both encoded). */
  many(ids: string[], owners: string[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** The plain select of one task: a batch of one get costs what an uncoalesced get does. */
  one(taskId: string, owner: string): Promise<TaskRecord | undefined>;
}

interface Waiter {
  readonly owner: string;
  resolve(record: TaskRecord | undefined): void;
  reject(error: unknown): void;
}

/**
 * Coalesces concurrent `get`s into one statement each (`WHERE task_id = ANY($1) AND owner = ANY($2)`, every row
 * handed only to the callers that asked for its exact id and owner). Why: a `get` is one round trip, and most of
 * its cost on the client is the driver's per-query work (protocol messages, a result, a socket write waking the
 * backend), which a batch pays once for all its callers.
 *
 * No timer: the gets made before the next microtask checkpoint go out together at that checkpoint, so a lone get
 * waits for nothing. While `maxInFlight` statements are running (the pool's size: more would only queue for a
 * connection), further gets accumulate and go out as soon as one statement ends, at most {@link MAX_GET_BATCH} ids
 * each; a batch of one get runs the plain single-row statement. Every get's statement starts after the get was
 * called, so it sees every write that resolved before.
 */
export class GetBatcher {
  readonly #statements: GetStatements;
  readonly #maxInFlight: number;
  readonly #coalesce: boolean;
  /** Waiting gets by (encoded) task id, in arrival order. */
  #pending = new Map<string, Waiter[]>();
  #scheduled = false;
  #inFlight = 0;

  /**
   * `maxInFlight`: most batched statements running at once (the pool's size); `coalesce: false` sends every get as
   * its own statement, at once.
   */
  constructor(statements: GetStatements, options: { readonly maxInFlight: number; readonly coalesce: boolean }) {
    this.#statements = statements;
    this.#maxInFlight = Math.max(1, options.maxInFlight);
    this.#coalesce = options.coalesce;
  }

  /** The record of `taskId` (encoded) if `owner` (encoded) owns it; rejects with the error of its statement. */
  get(taskId: string, owner: string): Promise<TaskRecord | undefined> {
    if (!this.#coalesce) return this.#statements.one(taskId, owner);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { owner, resolve, reject };
      const waiters = this.#pending.get(taskId);
      if (waiters === undefined) this.#pending.set(taskId, [waiter]);
      else waiters.push(waiter);
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#inFlight >= this.#maxInFlight) return;
    this.#scheduled = true;
    queueMicrotask(this.#flush);
  }

  readonly #flush = (): void => {
    this.#scheduled = false;
    while (this.#pending.size > 0 && this.#inFlight < this.#maxInFlight) {
      this.#inFlight++;
      void this.#send(this.#take());
    }
  };

  /** The oldest pending gets, at most {@link MAX_GET_BATCH} distinct ids. */
  #take(): Map<string, Waiter[]> {
    const pending = this.#pending;
    if (pending.size <= MAX_GET_BATCH) {
      this.#pending = new Map();
      return pending;
    }
    const batch = new Map<string, Waiter[]>();
    for (const [taskId, waiters] of pending) {
      if (batch.size === MAX_GET_BATCH) break;
      batch.set(taskId, waiters);
      pending.delete(taskId);
    }
    return batch;
  }

  async #send(batch: Map<string, Waiter[]>): Promise<void> {
    try {
      const [taskId, waiters] = batch.entries().next().value as [string, Waiter[]];
      if (batch.size === 1 && waiters.length === 1) {
        (waiters[0] as Waiter).resolve(await this.#statements.one(taskId, (waiters[0] as Waiter).owner));
        return;
      }
      const owners = new Set<string>();
      for (const waiters of batch.values()) for (const waiter of waiters) owners.add(waiter.owner);
      const { rows } = await this.#statements.many([...batch.keys()], [...owners]);
      for (const row of rows) answer(batch.get(row.task_id as string), row);
      // Whoever no row answered has no such task; a promise already resolved ignores this.
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.resolve(undefined);
    } catch (error) {
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
    } finally {
      this.#inFlight--;
      if (this.#pending.size > 0) this.#schedule();
    }
  }
}

/** Resolves the callers of a row's task id whose owner is the row's; they share the parsed (frozen) record. */
function answer(waiters: readonly Waiter[] | undefined, row: Record<string, unknown>): void {
  if (waiters === undefined) return;
  let record: TaskRecord | undefined;
  for (const waiter of waiters) {
    if (waiter.owner !== row.owner) continue;
    record ??= parseRecord(row.record as string);
    waiter.resolve(record);
  }
}
