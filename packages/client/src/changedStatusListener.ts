/**
 * `onStatus` sees a task state only when it differs from the last one it saw: a poll that finds the task as it
 * was (same status, message and `lastUpdatedAt`) is not news, and a progress UI or log would repeat itself.
 */
import type { DetailedTask, Task } from '@mcp-tasks/protocol';

/** A callback that sees each observed task state that differs from the last one it saw, the seed first. Exceptions it throws are ignored. */
export type TaskStatusListener = (task: Task | DetailedTask) => void;

/** Wraps `listener` so that it is called only for a state that changed since the previous call. */
export function changedStatusListener(listener: TaskStatusListener | undefined): TaskStatusListener | undefined {
  if (listener === undefined) return undefined;
  let last: Task | DetailedTask | undefined;
  return (task) => {
    if (
      last !== undefined &&
      last.status === task.status &&
      last.statusMessage === task.statusMessage &&
      last.lastUpdatedAt === task.lastUpdatedAt
    )
      return;
    last = task;
    listener(task);
  };
}
