import { createTaskIdGenerator } from '@mcp-tasks/task-store';
import { ClaimingWorker } from './claimingWorker.js';
import type { ExecutionEvent } from './durableCall.js';
import type { ExecutionOptions, ExecutionRole, McpServerOptions } from './mcpServerOptions.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retryPolicy.js';
import type { TaskExecutor } from './taskExecutor.js';

/**
 * The defaults of {@link McpServerOptions}, in one place: what a server does when an option is left out. Each value
 * is documented on its option.
 */
export const SERVER_DEFAULTS = Object.freeze({
  ttlMs: 3_600_000,
  pollIntervalMs: 1000,
  immediateResultMs: 0,
  maxInputRequestsPerTask: 16,
  maxTasksPerPrincipal: 10_000,
  maxFinishedTasksPerPrincipal: 10_000,
  leaseMs: 30_000,
  keepFinishedMs: 600_000,
  maxTaskIdsPerListen: 1000,
  pageSize: 100,
  maxLegacySessions: 10_000,
  parkAfterMs: 5_000,
});

/** The task settings of a server with every default applied. */
export interface ResolvedTaskOptions {
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  readonly immediateResultMs: number;
  readonly maxInputRequestsPerTask: number;
  readonly maxTasksPerPrincipal: number;
  readonly maxFinishedTasksPerPrincipal: number;
  readonly leaseMs: number;
  readonly keepFinishedMs: number | null;
  readonly workerId: string;
  readonly maxTaskIdsPerListen: number;
}

/** {@link McpServerOptions.tasks} with {@link SERVER_DEFAULTS} applied (`null` TTLs kept as given). */
export function resolveTaskOptions(options: McpServerOptions): ResolvedTaskOptions {
  const tasks = options.tasks;
  const d = SERVER_DEFAULTS;
  return {
    ttlMs: tasks?.ttlMs === undefined ? d.ttlMs : tasks.ttlMs,
    pollIntervalMs: tasks?.pollIntervalMs ?? d.pollIntervalMs,
    immediateResultMs: tasks?.immediateResultMs ?? d.immediateResultMs,
    maxInputRequestsPerTask: tasks?.maxInputRequestsPerTask ?? d.maxInputRequestsPerTask,
    maxTasksPerPrincipal: tasks?.maxTasksPerPrincipal ?? d.maxTasksPerPrincipal,
    maxFinishedTasksPerPrincipal: tasks?.maxFinishedTasksPerPrincipal ?? d.maxFinishedTasksPerPrincipal,
    leaseMs: tasks?.leaseMs ?? d.leaseMs,
    keepFinishedMs: tasks?.keepFinishedMs === undefined ? d.keepFinishedMs : tasks.keepFinishedMs,
    workerId: tasks?.workerId ?? `worker-${createTaskIdGenerator()().slice(0, 12)}`,
    maxTaskIdsPerListen: Math.max(1, tasks?.maxTaskIdsPerListen ?? d.maxTaskIdsPerListen),
  };
}

/** {@link McpServerOptions.execution} with defaults applied. */
export interface ResolvedExecutionOptions {
  readonly role: ExecutionRole;
  readonly parkAfterMs: number;
  readonly retry: RetryPolicy;
  readonly executor: TaskExecutor;
  readonly onEvent: (event: ExecutionEvent) => void;
}

/** {@link McpServerOptions.execution} with {@link SERVER_DEFAULTS} applied; `report` gets the worker's claim errors. */
export function resolveExecutionOptions(
  execution: ExecutionOptions | undefined,
  report: (error: unknown) => void,
): ResolvedExecutionOptions {
  return {
    role: execution?.role ?? 'both',
    parkAfterMs: Math.max(0, execution?.parkAfterMs ?? SERVER_DEFAULTS.parkAfterMs),
    retry: Object.freeze({ ...DEFAULT_RETRY_POLICY, ...execution?.retry }),
    executor:
      execution?.executor ??
      new ClaimingWorker({
        ...(execution?.concurrency === undefined ? {} : { concurrency: execution.concurrency }),
        ...(execution?.claimIntervalMs === undefined ? {} : { claimIntervalMs: execution.claimIntervalMs }),
        onError: report,
      }),
    onEvent: execution?.onEvent ?? (() => undefined),
  };
}
