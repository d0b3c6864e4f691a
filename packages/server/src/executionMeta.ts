import type { TaskExecution, TaskRecord } from '@mcp-tasks/task-store';
import type { JsonObject } from './jsonRpc.js';

/**
 * The `_meta` key under which `tasks/get` results and `notifications/tasks` of a durable task carry how its work
 * stands: `{ state, attempt, steps: [{ name, attempt }] }` (`state` `queued | running | parked`; `attempt` the run
 * of the work, re-runs count up; the steps completed so far, each with the run that completed it). Not part of the
 * protocol: clients that do not know it ignore it (the task console draws a step timeline from it).
 */
export const EXECUTION_META_KEY = 'io.mcp-tasks/execution';

/** The wire form of a durable task's execution. */
function executionView(execution: TaskExecution): JsonObject {
  return Object.freeze({
    state: execution.state,
    attempt: execution.attempt,
    steps: execution.steps ?? [],
  });
}

/**
 * `meta` with the execution of `record` added under {@link EXECUTION_META_KEY}, frozen; `meta` itself for a task
 * whose work is not durable.
 */
export function withExecutionMeta(record: TaskRecord, meta: JsonObject | undefined): JsonObject | undefined {
  const execution = record.execution;
  if (execution === undefined) return meta;
  return Object.freeze({ ...meta, [EXECUTION_META_KEY]: executionView(execution) });
}
