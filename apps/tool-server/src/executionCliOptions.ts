/**
 * The durable-execution flags of the sample server: which role this process plays, how long a question waits in
 * memory before its task is parked, how many claimed tasks it runs at once, and how long a shutdown drains.
 */
import type { ExecutionRole } from '@mcp-tasks/server';

/** The execution settings given on the command line; each undefined unless given (the runtime default). */
export interface ExecutionCliOptions {
  /** `--role`: `front` takes calls and serves `tasks/*`; `worker` runs tasks and opens no port; `both`. @default both */
  readonly role: ExecutionRole;
  /** `--park-after-ms`: a question unanswered this long parks its task. @default 5000 (the runtime's) */
  readonly parkAfterMs?: number | undefined;
  /** `--concurrency`: claimed tasks run at once. @default 16 (the runtime's) */
  readonly concurrency?: number | undefined;
  /** `--drain-ms`: how long SIGTERM lets the steps in flight finish before handing their tasks back. @default 10000 */
  readonly drainMs: number;
}

const ROLES: readonly ExecutionRole[] = ['front', 'worker', 'both'];

/** The `parseArgs` option specs of the execution flags. */
export const EXECUTION_OPTIONS = {
  role: { type: 'string', default: 'both' },
  'park-after-ms': { type: 'string' },
  concurrency: { type: 'string' },
  'drain-ms': { type: 'string' },
} as const;

/** The help text of the execution flags. */
export const EXECUTION_USAGE = `Durable execution (docs/guides/durable-execution.md):
  --role front|worker|both    front: takes calls, queues durable tasks; worker: runs them, opens no port
                              (default both)
  --park-after-ms MS          a question unanswered this long parks its task: nothing stays in memory (default 5000)
  --concurrency N             claimed tasks run at once by this worker (default 16)
  --drain-ms MS               on SIGTERM, time for the steps in flight to finish before their tasks are handed
                              back to the store for another instance (default 10000)`;

/** Reads the execution flags; throws the error `usage` makes of a one-line message for a bad value. */
export function parseExecution(
  values: Record<string, unknown>,
  usage: (message: string) => Error,
): ExecutionCliOptions {
  const role = String(values.role ?? 'both');
  if (!(ROLES as readonly string[]).includes(role)) {
    throw usage(`--role must be one of ${ROLES.join(', ')} (got "${role}")`);
  }
  const integer = (flag: string, min: number, max: number): number | undefined => {
    const text = values[flag];
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!Number.isInteger(value) || value < min || value > max) {
      throw usage(`--${flag} must be an integer from ${min} to ${max} (got "${String(text)}")`);
    }
    return value;
  };
  return {
    role: role as ExecutionRole,
    parkAfterMs: integer('park-after-ms', 0, 86_400_000),
    concurrency: integer('concurrency', 1, 10_000),
    drainMs: integer('drain-ms', 0, 3_600_000) ?? 10_000,
  };
}
