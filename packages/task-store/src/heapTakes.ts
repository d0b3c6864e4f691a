import type { DeadlineHeap } from './deadlineHeap.js';
import { runnableAt } from './durableTaskStore.js';
import { isTerminalStatus, type TaskRecord } from './taskStore.js';

/**
 * The in-memory store's `lapsedLeases` over its lease heap: up to `limit` non-durable live tasks whose lease ran
 * out at or before `now`, re-queued so they are returned again until a write resolves them.
 */
export function takeLapsed(
  leases: DeadlineHeap,
  records: ReadonlyMap<string, TaskRecord>,
  now: number,
  limit: number,
): TaskRecord[] {
  const lapsed: TaskRecord[] = [];
  while (leases.size > 0 && lapsed.length < limit && leases.peek() <= now) {
    const taskId = leases.pop() as string;
    const record = records.get(taskId);
    // Stale entry: the task is gone, ended or has no lease (drop), or the lease was renewed (re-queue).
    if (record === undefined || isTerminalStatus(record.status) || record.lease === undefined) continue;
    if (record.execution !== undefined) continue; // durable: `claim` recovers it
    if (record.lease.until > now) leases.push(record.lease.until, taskId);
    else lapsed.push(record);
  }
  for (const record of lapsed) leases.push(record.lease?.until ?? now, record.taskId);
  return lapsed;
}

/**
 * The in-memory store's `claim` over its runnable heap: up to `limit` tasks runnable at `now`, each moved on by
 * `take` (the claim transition) and written by `write`. Stale entries are dropped or re-queued at their time.
 */
export function takeRunnable(
  runnable: DeadlineHeap,
  records: ReadonlyMap<string, TaskRecord>,
  now: number,
  limit: number,
  write: (current: TaskRecord, next: TaskRecord) => TaskRecord,
  take: (current: TaskRecord) => TaskRecord | undefined,
): TaskRecord[] {
  const claimed: TaskRecord[] = [];
  while (runnable.size > 0 && claimed.length < limit && runnable.peek() <= now) {
    const taskId = runnable.pop() as string;
    const record = records.get(taskId);
    const due = record === undefined ? null : runnableAt(record);
    if (record === undefined || due === null) continue;
    const next = take(record);
    if (next === undefined) runnable.push(due, taskId);
    else claimed.push(write(record, next));
  }
  return claimed;
}

/** Keeps the runnable heap current: a new or earlier runnable time gets an entry (later ones re-queue on pop). */
export function queueRunnable(runnable: DeadlineHeap, current: TaskRecord | undefined, record: TaskRecord): void {
  const due = runnableAt(record);
  const before = current === undefined ? null : runnableAt(current);
  if (due !== null && (before === null || due < before)) runnable.push(due, record.taskId);
}
