import { deepFreeze } from './deepFreeze.js';
import { MAX_STEP_NAME_LENGTH, type RecordStepInput, type StepRecord } from './durableTaskStore.js';
import { TaskStoreError } from './taskStoreError.js';

const encoder = new TextEncoder();

/** A checked step result: its JSON text and that text's size. */
export interface MeasuredStep {
  /** `JSON.stringify` of the result. */
  readonly json: string;
  /** UTF-8 bytes of `json`. */
  readonly bytes: number;
}

/**
 * Checks a step before it is written and measures it: the JSON text of its result and its UTF-8 size. Throws
 * `TaskStoreError` `invalid_argument` (bad name, attempt or non-JSON result) or `step_limit` (above `maxStepBytes`),
 * worded the same by every store.
 */
export function measureStep(step: RecordStepInput, maxStepBytes: number): MeasuredStep {
  const { name, attempt } = step;
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_STEP_NAME_LENGTH) {
    throw new TaskStoreError('invalid_argument', `A step name must have 1 to ${MAX_STEP_NAME_LENGTH} characters`);
  }
  if (!Number.isInteger(attempt) || attempt < 0) {
    throw new TaskStoreError('invalid_argument', `Step ${name}: attempt must be a non-negative integer`);
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(step.result);
  } catch (error) {
    throw new TaskStoreError('invalid_argument', `Step ${name}: the result is not JSON`, { cause: error });
  }
  if (json === undefined) throw new TaskStoreError('invalid_argument', `Step ${name}: the result is not JSON`);
  const bytes = encoder.encode(json).length;
  if (bytes > maxStepBytes) throw stepLimit(`Step ${name}: result of ${bytes} bytes exceeds ${maxStepBytes} bytes`);
  return { json, bytes };
}

/** The `step_limit` refusal. */
export function stepLimit(message: string): TaskStoreError {
  return new TaskStoreError('step_limit', message);
}

/** The task-total part of the `step_limit` refusal, worded the same by every store. */
export function taskStepLimit(name: string, maxStepBytesPerTask: number): TaskStoreError {
  return stepLimit(`Step ${name}: the task's step results would exceed ${maxStepBytesPerTask} bytes`);
}

interface TaskSteps {
  readonly list: StepRecord[];
  readonly byName: Map<string, StepRecord>;
  bytes: number;
}

/** The in-memory store's completed steps, per task, with the running byte total the per-task limit checks. */
export class StepLog {
  readonly #tasks = new Map<string, TaskSteps>();

  /** Records `step` (already measured) unless its name is; returns the stored step and whether this call wrote it. */
  record(
    taskId: string,
    step: RecordStepInput,
    measured: MeasuredStep,
    maxPerTask: number,
    completedAt: string,
  ): { fresh: boolean; step: StepRecord } {
    let steps = this.#tasks.get(taskId);
    const stored = steps?.byName.get(step.name);
    if (stored !== undefined) return { fresh: false, step: stored };
    if ((steps?.bytes ?? 0) + measured.bytes > maxPerTask) throw taskStepLimit(step.name, maxPerTask);
    if (steps === undefined) {
      steps = { list: [], byName: new Map(), bytes: 0 };
      this.#tasks.set(taskId, steps);
    }
    // Stored as parsed from its JSON, so a replay returns exactly what a database would.
    const result: unknown = deepFreeze(JSON.parse(measured.json));
    const record: StepRecord = Object.freeze({ name: step.name, attempt: step.attempt, result, completedAt });
    steps.list.push(record);
    steps.byName.set(step.name, record);
    steps.bytes += measured.bytes;
    return { fresh: true, step: record };
  }

  /** The task's steps in recording order. */
  steps(taskId: string): readonly StepRecord[] {
    return this.#tasks.get(taskId)?.list.slice() ?? [];
  }

  /** Forgets a removed task's steps. */
  remove(taskId: string): void {
    this.#tasks.delete(taskId);
  }

  /** Tasks with steps. */
  get size(): number {
    return this.#tasks.size;
  }

  clear(): void {
    this.#tasks.clear();
  }
}
