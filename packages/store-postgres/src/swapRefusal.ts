import { type TaskOwner, type TaskRecord, TaskStoreError } from '@mcp-tasks/task-store';

/**
 * Why a swap's `next` may not be written (not the next version of the same task, or a ttl above `maxTtlMs`), or
 * undefined when it may.
 */
export function swapRefusal(
  taskId: string,
  owner: TaskOwner,
  expectedVersion: number,
  next: TaskRecord,
  maxTtlMs: number | null,
): TaskStoreError | undefined {
  if (next.taskId !== taskId || next.owner !== owner || next.version !== expectedVersion + 1) {
    return new TaskStoreError('invalid_argument', `swap of ${taskId} needs the next version of the same task`);
  }
  if (maxTtlMs !== null && (next.ttlMs === null || next.ttlMs > maxTtlMs)) {
    return new TaskStoreError('ttl_limit', `ttlMs ${next.ttlMs} exceeds the maximum of ${maxTtlMs} ms`);
  }
  return undefined;
}
