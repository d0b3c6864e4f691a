/**
 * The async-iterator form of `onStatus`, for progress UIs that prefer `for await`.
 */
import type { DetailedTask, Task } from '@mcp-tasks/protocol';
import type { TaskStatusListener } from './changedStatusListener.js';
import { TERMINAL_STATUSES } from './taskTracker.js';

/** A buffered stream of observed task states. */
export interface TaskStatusStream extends AsyncIterable<Task | DetailedTask> {
  /** Pass as `onStatus`. */
  readonly onStatus: TaskStatusListener;
  /** Ends the iteration once buffered states are consumed. Idempotent; call it when the call settles. */
  end(): void;
}

/**
 * Creates a stream to pass as `onStatus`. Iteration yields every observed state in order (nothing is dropped; the
 * buffer grows if the consumer is slow) and finishes after a terminal state or `end()`, whichever comes first.
 * Intended for one consumer.
 *
 * ```ts
 * const statuses = taskStatusStream();
 * const result = client.callTool('build', {}, { onStatus: statuses.onStatus }).finally(statuses.end);
 * for await (const task of statuses) console.log(task.status, task.statusMessage);
 * ```
 */
export function taskStatusStream(): TaskStatusStream {
  const buffer: (Task | DetailedTask)[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const end = (): void => {
    ended = true;
    wake?.();
  };
  return {
    onStatus(task) {
      if (ended) return;
      buffer.push(task);
      if (TERMINAL_STATUSES.has(task.status)) ended = true;
      wake?.();
    },
    end,
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const next = buffer.shift();
        if (next !== undefined) {
          yield next;
          continue;
        }
        if (ended) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    },
  };
}
