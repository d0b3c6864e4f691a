import { type CallToolResult, ErrorCode, ProtocolError } from '@mcp-tasks/protocol';
import type { DeferredTask } from './deferredTask.js';
import type { RunningTool } from './runningTools.js';
import { isTaskAbort } from './taskAbort.js';
import type { RunEnd } from './taskExecutor.js';
import { completeToolResult, exceptionMessage, type ToolOutcome, toolErrorResult } from './toolInvocation.js';

/** The error of a call refused or abandoned because the server is shutting down. */
export function shuttingDown(): ProtocolError {
  return new ProtocolError(ErrorCode.InternalError, 'Server is shutting down');
}

/** How a re-run ended, once its call is released. */
export function runEnd(call: RunningTool): RunEnd {
  return call.durable?.yielded ?? (isTaskAbort(call.reason, 'lease_lost') ? 'lost' : 'finished');
}

/** Whether a call still streams request-scoped notifications: only while its task is not created. */
export function whileInGrace(task: DeferredTask): () => boolean {
  return () => task.creation === undefined;
}

/** The answer of a call that finished within its grace period without a task. */
export function directAnswer(outcome: ToolOutcome): CallToolResult {
  switch (outcome.kind) {
    case 'result':
      return completeToolResult(outcome.result);
    case 'protocolError':
      throw outcome.error;
    case 'exception':
      return completeToolResult(toolErrorResult(exceptionMessage(outcome.error)));
    case 'input':
      throw new Error('A task-mode tool returned input_required; use collectInput for MRTR');
  }
}
