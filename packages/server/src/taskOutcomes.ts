import { ErrorCode } from '@mcp-tasks/protocol';
import { isTaskStoreError, type TaskOperations } from '@mcp-tasks/task-store';
import { isTaskAbort } from './taskAbort.js';
import { completeToolResult, exceptionMessage, type ToolOutcome, toolErrorResult } from './toolInvocation.js';

/** The error of a task whose tool was stopped by a shutdown. */
export const SHUTDOWN_ERROR = Object.freeze({ code: ErrorCode.InternalError, message: 'Server shut down' });

/**
 * Writes how a task's tool ended: a result (even `isError`) or an ordinary exception completes the task; a
 * `ProtocolError` fails it with that error; an exception after a shutdown abort fails it with {@link SHUTDOWN_ERROR};
 * returning `ctx.inputRequired()` fails it (that is the synchronous MRTR way). After a `lease_lost` abort nothing is
 * written: another instance owns the task now. A write that loses to a terminal state (cancel, expiry) is dropped.
 */
export async function writeToolOutcome(
  ops: TaskOperations,
  owner: string,
  taskId: string,
  outcome: ToolOutcome,
  abortReason: unknown,
): Promise<void> {
  if (isTaskAbort(abortReason, 'lease_lost')) return;
  switch (outcome.kind) {
    case 'result':
      await ops.complete(owner, taskId, completeToolResult(outcome.result));
      return;
    case 'protocolError':
      await ops.fail(owner, taskId, outcome.error.toJSON(), outcome.error.message);
      return;
    case 'exception':
      if (isTaskAbort(abortReason, 'shutdown')) {
        await ops.fail(owner, taskId, SHUTDOWN_ERROR, 'The server shut down before the task finished');
      } else {
        await ops.complete(owner, taskId, completeToolResult(toolErrorResult(exceptionMessage(outcome.error))));
      }
      return;
    case 'input':
      await ops.fail(
        owner,
        taskId,
        { code: ErrorCode.InternalError, message: 'Internal error' },
        'The tool asked for input the MRTR way while running as a task',
      );
      return;
  }
}

/** A write that lost to a closed store or an expired task is expected; anything else is worth reporting. */
export function isExpectedStoreError(error: unknown): boolean {
  return isTaskStoreError(error, 'closed') || isTaskStoreError(error, 'task_not_found');
}
