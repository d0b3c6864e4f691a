/**
 * @mcp-tasks/task-store: the asynchronous `TaskStore` interface every task store implements, the in-memory store,
 * and the helpers stores share (list cursors, task ids). Runtime-neutral.
 *
 * @module @mcp-tasks/task-store
 */

export type {
  ClaimOptions,
  DurableTaskStore,
  RecordStepInput,
  RecordStepResult,
  StepRecord,
  StepValue,
} from './durableTaskStore.js';
export {
  DEFAULT_MAX_STEP_BYTES,
  DEFAULT_MAX_STEP_BYTES_PER_TASK,
  isDurableTaskStore,
  MAX_STEP_NAME_LENGTH,
  runnableAt,
} from './durableTaskStore.js';
export { InMemoryTaskStore } from './inMemoryTaskStore.js';
export type { InMemoryTaskStoreOptions, InMemoryTaskStoreStats } from './inMemoryTaskStoreOptions.js';
export type { TaskListPosition } from './listCursor.js';
export { checkListLimit, compareListPosition, decodeListCursor, encodeListCursor } from './listCursor.js';
export type { MeasuredStep } from './stepLog.js';
export { measureStep, taskStepLimit } from './stepLog.js';
export type { ExecutionState, ExecutionStep, TaskExecution } from './taskExecution.js';
export { MAX_LISTED_STEPS } from './taskExecution.js';
export type { RandomFill } from './taskId.js';
export { createTaskIdGenerator } from './taskId.js';
export { TaskOperations } from './taskOperations.js';
export type { TaskOperationsOptions } from './taskOperationsOptions.js';
export type {
  CreateTaskOptions,
  InputRequest,
  InputResponse,
  InputResponses,
  JsonObject,
  ListTasksOptions,
  RequestInputResult,
  ResolveInputsResult,
  SwapResult,
  SweepStats,
  TaskError,
  TaskEvent,
  TaskLease,
  TaskListener,
  TaskOwner,
  TaskPage,
  TaskRecord,
  TaskRecordPatch,
  TaskStatus,
  TaskStore,
  TaskStoreLimits,
  TerminalResult,
  TerminalStatus,
  Unsubscribe,
} from './taskStore.js';
export { isTerminalStatus } from './taskStore.js';
export type { TaskStoreErrorCode } from './taskStoreError.js';
export { isTaskStoreError, TaskStoreError, taskLimitReached } from './taskStoreError.js';
