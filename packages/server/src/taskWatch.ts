import { detailedTask } from '@mcp-tasks/protocol';
import type { TaskEvent, TaskOperations, TaskRecord, Unsubscribe } from '@mcp-tasks/task-store';
import { sameClientView } from '@mcp-tasks/task-store/transitions';
import { withExecutionMeta } from './executionMeta.js';
import type { JsonObject } from './jsonRpc.js';

/**
 * The tasks of one listen stream. Subscribes to each requested task the caller owns; events are held until
 * {@link start} (called after the acknowledgement), which sends each task's current state once and then only newer
 * versions, so nothing is missed or repeated. An expired task is dropped from the stream; `onEmpty` runs when the
 * last acknowledged task is gone. Per task it keeps one map entry (the last state sent) and the store one routing
 * entry: a stream may watch thousands of tasks for hours.
 */
export class TaskWatch {
  readonly #send: (method: string, params: JsonObject) => void;
  readonly #onEmpty: (() => void) | undefined;
  /** The watched tasks (acknowledged and not expired), with the last record sent (null before the first). */
  readonly #watched = new Map<string, TaskRecord | null>();
  #started = false;
  /** Until {@link start}: the current records read at subscription, the events meanwhile, the early expiries. */
  #current: TaskRecord[] = [];
  #held: TaskRecord[] = [];
  #expiredEarly: string[] = [];

  constructor(send: (method: string, params: JsonObject) => void, onEmpty: (() => void) | undefined) {
    this.#send = send;
    this.#onEmpty = onEmpty;
  }

  /**
   * Listens to the first `maxTaskIds` distinct ids of `taskIds` and reads each one's current record; tasks that do
   * not exist or that another owner holds are left out. Resolves with the function that stops listening.
   */
  async watch(
    ops: TaskOperations,
    owner: string,
    taskIds: readonly string[],
    maxTaskIds: number,
  ): Promise<Unsubscribe> {
    await ops.ready();
    const unique = firstDistinct(taskIds, maxTaskIds);
    // One listener for all the stream's tasks, registered before the reads, so no change between is missed.
    const unlisten = ops.listenMany(owner, unique, (event) => this.#onEvent(event));
    try {
      for (const taskId of unique) {
        const record = await ops.get(owner, taskId);
        if (record === undefined) continue;
        this.#watched.set(taskId, null);
        this.#current.push(record);
      }
    } catch (error) {
      unlisten();
      throw error;
    }
    return unlisten;
  }

  /** The ids of the watched tasks, in request order (the acknowledgement's `taskIds`). */
  acknowledged(): string[] {
    return [...this.#watched.keys()];
  }

  /** Sends the current states and what changed meanwhile, then every later change as it comes. */
  start(): void {
    this.#started = true;
    for (const record of [...this.#current, ...this.#held].sort((a, b) => a.version - b.version)) {
      this.#deliver(record);
    }
    const expired = this.#expiredEarly;
    // Not needed any more, and these records go stale: the stream lives as long as its tasks.
    this.#current = [];
    this.#held = [];
    this.#expiredEarly = [];
    for (const taskId of expired) this.#expire(taskId);
  }

  #onEvent(event: TaskEvent): void {
    if (event.type === 'expired') {
      if (this.#started) this.#expire(event.record.taskId);
      else this.#expiredEarly.push(event.record.taskId);
    } else if (event.type === 'updated') {
      if (this.#started) this.#deliver(event.record);
      else this.#held.push(event.record);
    }
  }

  #deliver(record: TaskRecord): void {
    const last = this.#watched.get(record.taskId);
    if (last === undefined || (last !== null && last.version >= record.version)) return;
    this.#watched.set(record.taskId, record);
    // A lease renewal is a new version no client can see: nothing to notify.
    if (last !== null && sameClientView(last, record)) return;
    const task: Record<string, unknown> = detailedTask(record);
    const execution = withExecutionMeta(record, undefined);
    if (execution !== undefined) task._meta = execution;
    this.#send('notifications/tasks', task);
  }

  /** Drops an expired task (the store sends nothing more for it; its routing entry goes when the stream ends). */
  #expire(taskId: string): void {
    if (!this.#watched.delete(taskId)) return;
    if (this.#watched.size === 0) this.#onEmpty?.();
  }
}

/**
 * The first `limit` distinct values of `values`, in order: a stream holds a routing entry in the store for each id it
 * considers, so a client cannot make it hold more by sending more.
 */
function firstDistinct(values: readonly string[], limit: number): string[] {
  const distinct = new Set<string>();
  for (const value of values) {
    if (distinct.size >= limit) break;
    distinct.add(value);
  }
  return [...distinct];
}
