import { createTaskIdGenerator, InMemoryTaskStore } from '@mcp-tasks/task-store';
import { EXECUTION_DEFAULTS } from './executionOptions.js';
import type { McpServerOptions } from './mcpServerOptions.js';

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
  ...EXECUTION_DEFAULTS,
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

/** The store of a server given none: in memory, bounded per principal by the resolved task limits. */
export function defaultTaskStore(tasks: ResolvedTaskOptions): InMemoryTaskStore {
  return new InMemoryTaskStore({
    maxTasksPerOwner: tasks.maxTasksPerPrincipal,
    maxFinishedTasksPerOwner: tasks.maxFinishedTasksPerPrincipal,
  });
}
