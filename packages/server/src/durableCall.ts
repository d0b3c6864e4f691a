import type { DurableTaskStore, StepRecord, TaskOperations } from '@mcp-tasks/task-store';
import type { RetryPolicy } from './retryPolicy.js';

/**
 * Something the durable runtime did to a task, for logs and metrics (`McpServerOptions.execution.onEvent`). Every
 * event names the task and the attempt (the run of its work; the first is 1).
 */
export type ExecutionEvent = StepEvent | RetryEvent | ParkedEvent | HandedBackEvent | ClaimedEvent;

/** What every {@link ExecutionEvent} says. */
export interface ExecutionEventBase {
  /** The task. */
  readonly taskId: string;
  /** The run of the task's work (the first is 1). */
  readonly attempt: number;
}

/** A step ran and its result was stored (`replayed: false`), or a run found it stored and skipped it. */
export interface StepEvent extends ExecutionEventBase {
  /** Always `step`. */
  readonly type: 'step';
  /** The step's name. */
  readonly step: string;
  /** True when the run took the stored result instead of running the step. */
  readonly replayed: boolean;
  /** How long the step's function ran, in ms; 0 when replayed. */
  readonly durationMs: number;
}

/** A step threw a `RetryableError`: the task is handed back and runs again after `delayMs`. */
export interface RetryEvent extends ExecutionEventBase {
  /** Always `retry`. */
  readonly type: 'retry';
  /** The step that failed. */
  readonly step: string;
  /** The wait before the next run, in ms. */
  readonly delayMs: number;
  /** The error's message. */
  readonly error: string;
}

/** The task waits for input with no worker: nothing of it stays in this process. */
export interface ParkedEvent extends ExecutionEventBase {
  /** Always `parked`. */
  readonly type: 'parked';
}

/** A draining server handed the task back to the store for another worker. */
export interface HandedBackEvent extends ExecutionEventBase {
  /** Always `handed_back`. */
  readonly type: 'handed_back';
}

/** This worker claimed the task (new, woken by an answer, handed back, or of a lost worker) and runs it. */
export interface ClaimedEvent extends ExecutionEventBase {
  /** Always `claimed`. */
  readonly type: 'claimed';
}

/** What the durable calls of one server share. */
export interface DurableDeps {
  readonly ops: TaskOperations;
  readonly store: DurableTaskStore;
  readonly workerId: string;
  /** How long a durable task's question waits in memory before the task is parked. */
  readonly parkAfterMs: number;
  readonly retry: RetryPolicy;
  readonly onEvent: (event: ExecutionEvent) => void;
  /** Runs a step's function in a span of its own (telemetry with a tracer); absent: the function runs as is. */
  readonly traceStep?: <T>(taskId: string, step: string, attempt: number, run: () => T | Promise<T>) => Promise<T>;
}

/**
 * Why a durable call stopped without an outcome of its own: `parked` (it waits for input in the store) or
 * `handed_back` (a drain or a retry queued it for another run). Its tool's result, if any, is not written.
 */
export type YieldReason = 'parked' | 'handed_back';

/**
 * The durable side of a running call: which run of the task's work this is, the steps completed so far (loaded
 * before the run starts, so a replayed step costs no store call), and whether the run gave its task back.
 */
export class DurableCall {
  /** The run of the task's work this call is (`TaskExecution.attempt`). */
  readonly attempt: number;
  /** Steps completed by this or an earlier run, by name. */
  readonly steps: Map<string, StepRecord>;
  /** Set once the call parked its task or handed it back: its outcome is not written. */
  yielded: YieldReason | undefined;
  /** Set when the server drains: no new step starts, and a question parks at once. */
  draining = false;
  /** Set while the call waits for an answer: parks the task at once (a drain). */
  parkNow: (() => void) | undefined;

  constructor(attempt: number, steps: readonly StepRecord[] = []) {
    this.attempt = attempt;
    this.steps = new Map(steps.map((step) => [step.name, step]));
  }

  /** Stops new steps and parks a waiting question at once (the server drains). */
  drain(): void {
    this.draining = true;
    this.parkNow?.();
  }
}
