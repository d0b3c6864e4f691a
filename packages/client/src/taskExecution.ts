import { z } from 'zod';

/**
 * The `_meta` key under which an mcp-tasks server reports how a durable task's work stands (its
 * `EXECUTION_META_KEY`). Not part of the protocol: other servers do not send it.
 */
export const TASK_EXECUTION_META_KEY = 'io.mcp-tasks/execution';

/** One completed step of a durable task, with the run of its work that completed it. */
export const ExecutionStepViewSchema = z.object({
  /** The step's name. */
  name: z.string(),
  /** The run that completed it; above 1 the step ran in a re-run. */
  attempt: z.number().int().nonnegative(),
});
/** One completed step of a durable task. */
export type ExecutionStepView = z.infer<typeof ExecutionStepViewSchema>;

/** How a durable task's work stands: waiting for a worker, running, or parked on a question. */
export const TaskExecutionViewSchema = z.object({
  /** `queued`, `running` or `parked`. */
  state: z.enum(['queued', 'running', 'parked']),
  /** The run of the work (the first is 1; re-runs after a lost worker, a drain, a retry or a wake count up). */
  attempt: z.number().int().nonnegative(),
  /** The steps completed so far, in order (the first 100). */
  steps: z.array(ExecutionStepViewSchema),
});
/** How a durable task's work stands. */
export type TaskExecutionView = z.infer<typeof TaskExecutionViewSchema>;

/**
 * The execution an mcp-tasks server attached to a task state (a `tasks/get` result or a `notifications/tasks`
 * task), or undefined when there is none (not a durable task, another server) or it is malformed.
 */
export function taskExecutionOf(task: object): TaskExecutionView | undefined {
  const meta = (task as { readonly _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const parsed = TaskExecutionViewSchema.safeParse((meta as Record<string, unknown>)[TASK_EXECUTION_META_KEY]);
  return parsed.success ? parsed.data : undefined;
}
