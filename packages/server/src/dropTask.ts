import type { TaskOperations } from '@mcp-tasks/task-store';
import type { OutcomeWriter } from './outcomeWriter.js';
import type { RunningTool } from './runningTools.js';
import { isExpectedStoreError } from './taskOutcomes.js';
import type { ToolOutcome } from './toolInvocation.js';

/** What {@link dropTask} needs from its supervisor: made once per supervisor, not per call. */
export interface DropTaskDeps {
  readonly ops: TaskOperations;
  readonly report: (error: unknown) => void;
  readonly outcomes: OutcomeWriter;
  /** Whether the server is closing; read once the task's creation settled, so a close meanwhile counts. */
  readonly closed: () => boolean;
}

/**
 * Ends a task whose `CreateTaskResult` will never be sent: cancelled when its caller gave up, or, on shutdown,
 * written once the aborted tool settles (failed unless it still produced a result).
 */
export async function dropTask(
  call: RunningTool,
  creation: Promise<unknown>,
  outcome: Promise<ToolOutcome>,
  deps: DropTaskDeps,
): Promise<void> {
  const created = await creation.then(
    () => true,
    () => false,
  );
  if (!created) {
    await outcome;
    return;
  }
  if (deps.closed()) {
    await deps.outcomes.write(call, await outcome);
    return;
  }
  await deps.ops
    .cancel(call.owner, call.taskId, 'The request that started this task was abandoned')
    .catch((error: unknown) => {
      if (!isExpectedStoreError(error)) deps.report(error);
    });
  await outcome;
}
