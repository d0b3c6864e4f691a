import type { TaskOperations } from '@mcp-tasks/task-store';
import type { CallAbort } from './callAbort.js';
import type { DurableDeps } from './durableCall.js';
import type { JsonObject } from './jsonRpc.js';
import type { TaskTelemetry } from './taskTelemetry.js';
import type { InputChannel, ToolContext } from './toolContext.js';
import type { RegisteredTool } from './toolRegistry.js';

/** Task settings the supervisor runs tools with. */
export interface SupervisorOptions {
  readonly ops: TaskOperations;
  /** Lifetime of a task from creation; `null` keeps tasks until the store is closed. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  /** A task-mode call that finishes within this many ms is answered directly, without a task. 0 = always a task. */
  readonly immediateResultMs: number;
  readonly maxInputRequestsPerTask: number;
  /** How long a lease lasts without renewal. */
  readonly leaseMs: number;
  /** This instance's worker id, written into the leases it holds. */
  readonly workerId: string;
  /** Reserves a task id before the task exists. */
  readonly newTaskId: () => string;
  /** Steps, parking and hand-backs of `durable` tools; undefined when the store is not durable. */
  readonly durable?: DurableDeps | undefined;
  /**
   * A front (`execution.role: 'front'`) only queues a durable tool's task for the workers; otherwise the
   * instance that takes the call starts running it at once.
   */
  readonly queueDurable?: boolean;
  /** Spans and metrics of the tasks; undefined when the host configured no OpenTelemetry. */
  readonly telemetry?: TaskTelemetry | undefined;
  readonly report: (error: unknown) => void;
}

/** One task-mode `tools/call`, ready to run. */
export interface ToolLaunch {
  readonly owner: string;
  readonly tool: RegisteredTool;
  readonly args: unknown;
  /** Stored with the task: what a resumed run needs (tool name, and for a resumable tool its arguments). */
  readonly requestMeta: JsonObject;
  /** The request's `_meta`: its `traceparent` names the caller's span, parent of the task's span. */
  readonly callerMeta?: JsonObject;
  /** Builds the tool context; `streaming()` turns false once the `CreateTaskResult` is decided. */
  readonly makeContext: (channel: InputChannel, abort: CallAbort, streaming: () => boolean) => ToolContext;
  /** The request's signal: while the answer is undecided, its abort (the caller gave up) aborts the call. */
  readonly signal: AbortSignal;
  /** Create the task at once, whatever `immediateResultMs` says: the answer is always a `CreateTaskResult`. */
  readonly alwaysTask?: boolean;
  /**
   * The context's notifications outlive the answer (a 2025-era session's related-task notifications), so the
   * context keeps its notification stream once the `CreateTaskResult` is sent.
   */
  readonly keepsNotifying?: boolean;
  /** The task's lifetime from creation, instead of the supervisor's `ttlMs`. */
  readonly ttlMs?: number | null;
}

/**
 * What the supervisor creates a task of `launch` with (its id, TTL, poll interval and stored request); with
 * telemetry on, this starts the task's span, for the run `run`, and stores its context in `requestMeta`.
 */
export function newTaskShape(options: SupervisorOptions, taskId: string, launch: ToolLaunch, run: object) {
  const { telemetry } = options;
  return {
    taskId,
    ttlMs: launch.ttlMs === undefined ? options.ttlMs : launch.ttlMs,
    pollIntervalMs: options.pollIntervalMs,
    requestMeta:
      telemetry === undefined
        ? launch.requestMeta
        : telemetry.taskCreating(taskId, launch.requestMeta, launch.callerMeta, run),
  };
}
