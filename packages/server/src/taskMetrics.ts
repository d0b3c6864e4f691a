import { isTerminalStatus, type TaskRecord } from '@mcp-tasks/task-store';
import type { Attributes, Counter, Histogram, Meter, UpDownCounter } from '@opentelemetry/api';

/** Attribute names of the task telemetry (spans and metrics). */
export const TELEMETRY_ATTRIBUTES = Object.freeze({
  /** The task's id. */
  taskId: 'mcp.task.id',
  /** The tool the task runs (the GenAI semantic convention's name). */
  tool: 'gen_ai.tool.name',
  /** The task's status. */
  status: 'mcp.task.status',
  /** The run of a durable task's work (1 for the first). */
  attempt: 'mcp.task.attempt',
  /** The worker (instance) running it. */
  worker: 'mcp.task.worker',
  /** A durable step's name. */
  step: 'mcp.task.step',
  /** Why a run ended in this process (finished, parked, handed back, lost). */
  ended: 'mcp.task.run.end',
  /** The task-store operation timed. */
  operation: 'mcp.task_store.operation',
  /** How that store operation ended. */
  outcome: 'mcp.task_store.outcome',
});

const A = TELEMETRY_ATTRIBUTES;
/** Bucket bounds (s) for step, input-wait and store durations: 1 ms to about an hour. */
const SECONDS_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600];

/** The tool a task was created for, from its stored request (`requestMeta.name`). */
export function toolOf(record: TaskRecord): string {
  const name = record.requestMeta?.name;
  return typeof name === 'string' ? name : 'unknown';
}

const isParked = (record: TaskRecord) => record.execution?.state === 'parked';

/**
 * The task metrics of one server. Counts of tasks and their transitions are fed by the writes this instance makes
 * (`TaskOperations` `onWrite`), so each transition is counted once across instances sharing a store, and the
 * up-down counters (live by status, parked) sum to the store's totals across instances.
 */
export class TaskMetrics {
  readonly #created: Counter;
  readonly #finished: Counter;
  readonly #live: UpDownCounter;
  readonly #parked: UpDownCounter;
  readonly #steps: Histogram;
  readonly #polls: Counter;
  readonly #inputWait: Histogram;
  readonly #leaseLosses: Counter;
  readonly #reruns: Counter;
  readonly #store: Histogram;
  readonly #now: () => number;

  constructor(meter: Meter, now: () => number = Date.now) {
    this.#now = now;
    const seconds = { unit: 's', advice: { explicitBucketBoundaries: SECONDS_BUCKETS } };
    this.#created = meter.createCounter('mcp.tasks.created', { description: 'Tasks created, by tool' });
    this.#finished = meter.createCounter('mcp.tasks.finished', {
      description: 'Tasks that reached a terminal status, by status and tool',
    });
    this.#live = meter.createUpDownCounter('mcp.tasks.live', { description: 'Unfinished tasks, by status' });
    this.#parked = meter.createUpDownCounter('mcp.tasks.parked', {
      description: 'Durable tasks waiting for input with no worker, by tool',
    });
    this.#steps = meter.createHistogram('mcp.task.step.duration', {
      ...seconds,
      description: 'How long the function of a durable step ran (replayed steps are not counted)',
    });
    this.#polls = meter.createCounter('mcp.task.polls', { description: 'tasks/get requests, by task status' });
    this.#inputWait = meter.createHistogram('mcp.task.input_wait.duration', {
      ...seconds,
      description: 'How long a task waited in input_required, by tool',
    });
    this.#leaseLosses = meter.createCounter('mcp.task.lease_losses', {
      description: 'Runs that lost their task (lease lapsed or taken over), by tool',
    });
    this.#reruns = meter.createCounter('mcp.task.reruns', {
      description: 'Runs of a task after its first (claimed again, resumed), by tool',
    });
    this.#store = meter.createHistogram('mcp.task_store.operation.duration', {
      ...seconds,
      description: 'Latency of task store calls, by operation and outcome',
    });
  }

  /** A write this instance made: creation, status changes (live, finished, input wait) and parking. */
  written(before: TaskRecord | undefined, after: TaskRecord): void {
    const tool = toolOf(after);
    if (before === undefined) {
      this.#created.add(1, { [A.tool]: tool });
      if (isTerminalStatus(after.status)) this.#finished.add(1, { [A.tool]: tool, [A.status]: after.status });
      else this.#live.add(1, { [A.status]: after.status });
    } else if (before.status !== after.status) {
      this.#live.add(-1, { [A.status]: before.status });
      if (isTerminalStatus(after.status)) this.#finished.add(1, { [A.tool]: tool, [A.status]: after.status });
      else this.#live.add(1, { [A.status]: after.status });
      if (before.status === 'input_required') {
        // Parking leaves `lastUpdatedAt` as it is: this is the wait since the question, whichever instance asked.
        const waitedMs = this.#now() - Date.parse(before.lastUpdatedAt);
        this.#inputWait.record(Math.max(0, waitedMs) / 1000, { [A.tool]: tool });
      }
    }
    const parked = (isParked(after) ? 1 : 0) - (before !== undefined && isParked(before) ? 1 : 0);
    if (parked !== 0) this.#parked.add(parked, { [A.tool]: tool });
  }

  /** A durable step's function ran for `durationMs`. */
  step(tool: string, durationMs: number): void {
    this.#steps.record(durationMs / 1000, { [A.tool]: tool });
  }

  /** A `tasks/get` answered with `record`. */
  poll(record: TaskRecord): void {
    this.#polls.add(1, { [A.status]: record.status });
  }

  /** A run of `tool` lost its task. */
  leaseLost(tool: string): void {
    this.#leaseLosses.add(1, { [A.tool]: tool });
  }

  /** A task of `tool` runs again (its attempt after the first). */
  rerun(tool: string): void {
    this.#reruns.add(1, { [A.tool]: tool });
  }

  /** One store call took `durationMs`. */
  storeCall(operation: string, durationMs: number, failed: boolean): void {
    const attributes: Attributes = { [A.operation]: operation, [A.outcome]: failed ? 'error' : 'ok' };
    this.#store.record(durationMs / 1000, attributes);
  }
}
