import { isTerminalStatus, type TaskEvent, type TaskOwner, type TaskRecord } from '@mcp-tasks/task-store';

/**
 * The last known record of the tasks this store instance wrote (or was told of by a write it made, a lost swap, or
 * its change feed), so `update` can transition a task without reading it first. At most `limit` records, the least
 * recently written dropped first; a finished or expired task is dropped at once (it is never written again), and so
 * is a parked durable task (nothing of it stays in the process; its next write is an answer or a claim).
 *
 * A record here may be stale (another instance wrote the task since): it is only ever the expected version of a
 * conditional write, which then loses and reads the task, never an answer.
 */
export class RecordCache {
  readonly #limit: number;
  /** Task id → record, oldest write first (a Map keeps insertion order, and a write re-inserts). */
  readonly #records = new Map<string, TaskRecord>();

  /** `limit`: most records kept (a non-negative integer; 0 keeps none). */
  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 0) {
      throw new TypeError(`updateCacheSize must be a non-negative integer, got ${limit}`);
    }
    this.#limit = limit;
  }

  /** Records held now (never above the limit). */
  get size(): number {
    return this.#records.size;
  }

  /** The last known record of `taskId` if `owner` owns it. */
  lookup(owner: TaskOwner, taskId: string): TaskRecord | undefined {
    const record = this.#records.get(taskId);
    return record?.owner === owner ? record : undefined;
  }

  /**
   * Keeps `record` as its task's last known one (a write of this instance, or the current record a read found),
   * unless a later version of the same task is known already.
   */
  remember(record: TaskRecord): void {
    if (this.#limit === 0) return;
    const known = this.#records.get(record.taskId);
    if (known !== undefined && known.version > record.version && sameTask(known, record)) return;
    this.#records.delete(record.taskId);
    if (isTerminalStatus(record.status) || record.execution?.state === 'parked') return;
    this.#records.set(record.taskId, record);
    if (this.#records.size > this.#limit) this.#records.delete(this.#records.keys().next().value as string);
  }

  /** Drops what is known of `taskId` under `owner` (the task is gone). */
  forget(owner: TaskOwner, taskId: string): void {
    if (this.#records.get(taskId)?.owner === owner) this.#records.delete(taskId);
  }

  /**
   * A change-feed event: refreshes a task already held with a later version of it (another instance's write),
   * drops an expired one. Tasks not held are not added: the feed carries every task of every instance.
   */
  observe(event: TaskEvent): void {
    const known = this.#records.get(event.record.taskId);
    if (known === undefined) return;
    if (event.type === 'expired') this.#records.delete(event.record.taskId);
    else if (event.record.version > known.version && sameTask(known, event.record)) this.remember(event.record);
  }
}

/** Two records of one task, not of two tasks that had the same id one after the other (an id can be used again). */
function sameTask(a: TaskRecord, b: TaskRecord): boolean {
  return a.owner === b.owner && a.createdAt === b.createdAt;
}
