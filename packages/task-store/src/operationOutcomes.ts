import type { Decision } from './recordWait.js';
import {
  type InputResponse,
  isTerminalStatus,
  type SwapResult,
  type TaskRecord,
  type TerminalResult,
} from './taskStore.js';
import { TaskStoreError } from './taskStoreError.js';

/** The `task_not_found` refusal of a wait. */
export const notFound = (taskId: string) =>
  new TaskStoreError('task_not_found', `Task ${taskId} was not found (unknown, expired or not yours)`);
/** The `task_ended` refusal of a wait for input. */
export const ended = (record: TaskRecord) =>
  new TaskStoreError('task_ended', `Task ${record.taskId} is ${record.status}; no more input will arrive`);
/** The `unknown_input_key` refusal of a wait for input. */
export const unknownKey = (taskId: string, key: string) =>
  new TaskStoreError('unknown_input_key', `Input key ${key} is neither outstanding nor answered on task ${taskId}`);

const NOT_FOUND: TerminalResult = Object.freeze({ found: false });

/** A terminal transition's write as a {@link TerminalResult}: `won` when this call decided it. */
export function toTerminalResult(outcome: SwapResult): TerminalResult {
  if (outcome.ok) return { found: true, won: true, record: outcome.record };
  return outcome.current === undefined ? NOT_FOUND : { found: true, won: false, record: outcome.current };
}

/** What `waitForInput` decides on each record: the answer to `key`, or why none will come, or keep waiting. */
export function answerDecision(
  taskId: string,
  key: string,
): (record: TaskRecord | undefined) => Decision<InputResponse> {
  return (record) => {
    if (record === undefined) return { error: notFound(taskId) };
    const answer = record.answers[key];
    if (answer !== undefined) return { value: answer };
    if (isTerminalStatus(record.status)) return { error: ended(record) };
    if (!Object.hasOwn(record.inputRequests, key)) return { error: unknownKey(taskId, key) };
    return undefined;
  };
}

/** What `waitForEnd` decides on each record: the terminal record, undefined when gone, or keep waiting. */
export function endDecision(record: TaskRecord | undefined): Decision<TaskRecord | undefined> {
  return record === undefined || isTerminalStatus(record.status) ? { value: record } : undefined;
}
