import type { InputResponse } from '@mcp-tasks/protocol';
import type { RecordStepResult, StepRecord } from '@mcp-tasks/task-store';
import { handBackTask, parkTask } from '@mcp-tasks/task-store/transitions';
import type { DurableCall, DurableDeps, YieldReason } from './durableCall.js';
import { isRetryableError, type RetryableError, retryDelayMs } from './retryPolicy.js';
import type { RunningTool } from './runningTools.js';
import { TaskAbortError } from './taskAbort.js';
import { retryTransient } from './transientRetry.js';

/** The work of one step: gets the call's signal (cancel, lease loss, the end of a drain's grace). */
export type StepFunction<T> = (signal: AbortSignal) => T | Promise<T>;

/**
 * Runs a named step of a durable call: a step some run already completed returns its stored result without
 * running; otherwise `run` runs and its JSON result is written before this resolves (one store write), and the
 * stored value (the result as JSON gives it back) is what every run sees. A draining call starts no new step: it
 * hands its task back instead. A {@link RetryableError} hands the task back with the policy's backoff while attempts
 * are left. Rejects with a `TaskAbortError` when the call no longer holds its task.
 */
export async function runDurableStep<T>(
  deps: DurableDeps,
  call: RunningTool,
  durable: DurableCall,
  name: string,
  run: StepFunction<T>,
): Promise<T> {
  const done = durable.steps.get(name);
  if (done !== undefined) {
    deps.onEvent({
      type: 'step',
      taskId: call.taskId,
      attempt: durable.attempt,
      step: name,
      replayed: true,
      durationMs: 0,
    });
    return done.result as T;
  }
  if (durable.draining) throw await handBack(deps, call, durable);
  const started = performance.now();
  let value: T;
  try {
    const { traceStep } = deps;
    value = await (traceStep === undefined
      ? run(call.signal)
      : traceStep(call.taskId, name, durable.attempt, () => run(call.signal)));
  } catch (error) {
    if (isRetryableError(error) && !call.aborted) await retryLater(deps, call, durable, name, error);
    throw error;
  }
  // A run that lost its task meanwhile (a newer run took it over, even on this instance) must not record.
  if (call.aborted) throw call.reason;
  const durationMs = performance.now() - started;
  const recorded = await recordResult(deps, call, durable.attempt, name, value);
  durable.steps.set(name, recorded);
  deps.onEvent({
    type: 'step',
    taskId: call.taskId,
    attempt: durable.attempt,
    step: name,
    replayed: false,
    durationMs,
  });
  return recorded.result as T;
}

/** Writes a step's result (retried while the store is briefly unavailable); aborts the call when it lost the task. */
async function recordResult(
  deps: DurableDeps,
  call: RunningTool,
  attempt: number,
  name: string,
  value: unknown,
): Promise<StepRecord> {
  let recorded: RecordStepResult | undefined;
  // A step that returns nothing is stored (and replayed) as `null`: JSON has no `undefined`.
  const input = { name, attempt, result: value === undefined ? null : value };
  await retryTransient(
    async () => {
      recorded = await deps.store.recordStep(call.owner, call.taskId, deps.workerId, input);
    },
    {
      deadline: () => call.leaseUntil,
      get signal() {
        return call.signal;
      },
    },
  );
  if (recorded === undefined || !recorded.ok) {
    const lost = new TaskAbortError('lease_lost', `Worker ${deps.workerId} no longer holds the task`);
    call.abort(lost);
    throw lost;
  }
  return recorded.step;
}

/**
 * Waits for the answer to `key` like `TaskOperations.waitForInput`, but parks the task once it waited
 * `parkAfterMs` (at once when the server drains): the task leaves this process, the wait rejects with a `parked`
 * abort, and the answer wakes the task on whichever worker claims it. A park the store refuses (another worker holds
 * the task now) leaves the wait as it is: the lease keeper ends it.
 */
export function awaitOrPark(
  deps: DurableDeps,
  call: RunningTool,
  durable: DurableCall,
  key: string,
): Promise<InputResponse> {
  const answer = deps.ops.waitForInput(call.owner, call.taskId, key, call.signal);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const park = () => {
    clearTimeout(timer);
    durable.parkNow = undefined;
    void parkCall(deps, call, durable);
  };
  durable.parkNow = park;
  if (durable.draining) park();
  else timer = setTimeout(park, deps.parkAfterMs);
  const settle = () => {
    clearTimeout(timer);
    durable.parkNow = undefined;
  };
  answer.then(settle, settle);
  return answer;
}

async function parkCall(deps: DurableDeps, call: RunningTool, durable: DurableCall): Promise<void> {
  if (call.aborted || durable.yielded !== undefined) return;
  const parked = await deps.ops
    .apply(call.owner, call.taskId, (current) => parkTask(current, deps.workerId))
    .catch(() => undefined);
  if (parked?.ok !== true) return;
  yieldCall(call, durable, 'parked', 'Parked until its input arrives');
  deps.onEvent({ type: 'parked', taskId: call.taskId, attempt: durable.attempt });
}

/** Hands a draining call's task back at once; resolves with the abort the step rejects with. */
async function handBack(deps: DurableDeps, call: RunningTool, durable: DurableCall): Promise<TaskAbortError> {
  await handBackCall(deps, call, durable);
  return call.reason instanceof TaskAbortError ? call.reason : new TaskAbortError('handed_back', 'Handed back');
}

/**
 * Queues the call's task for another run from `notBefore` (absent: at once), unless it yielded already; the call's
 * signal aborts with `handed_back`. A hand-back the store refuses (the lease is gone) aborts it as `lease_lost`.
 */
export async function handBackCall(
  deps: DurableDeps,
  call: RunningTool,
  durable: DurableCall,
  notBefore?: number,
): Promise<void> {
  if (durable.yielded !== undefined) return;
  const back = await deps.ops
    .apply(call.owner, call.taskId, (current) => handBackTask(current, deps.workerId, notBefore))
    .catch(() => undefined);
  if (back?.ok !== true) {
    call.abort(new TaskAbortError('lease_lost', `Worker ${deps.workerId} could not hand the task back`));
    return;
  }
  yieldCall(call, durable, 'handed_back', 'Handed back to the task store for another run');
  if (notBefore === undefined) deps.onEvent({ type: 'handed_back', taskId: call.taskId, attempt: durable.attempt });
}

async function retryLater(
  deps: DurableDeps,
  call: RunningTool,
  durable: DurableCall,
  step: string,
  error: RetryableError,
): Promise<void> {
  const { attempt } = durable;
  const delayMs = retryDelayMs(deps.retry, attempt, error);
  if (delayMs === undefined) return;
  const seconds = Math.max(1, Math.round(delayMs / 1000));
  const message = `Step ${step} failed on attempt ${attempt} of ${deps.retry.maxAttempts} (${error.message}); retrying in ${seconds} s`;
  await deps.ops.setStatusMessage(call.owner, call.taskId, message).catch(() => undefined);
  await handBackCall(deps, call, durable, Date.now() + delayMs);
  deps.onEvent({ type: 'retry', taskId: call.taskId, attempt, step, delayMs, error: error.message });
}

function yieldCall(call: RunningTool, durable: DurableCall, reason: YieldReason, message: string): void {
  durable.yielded = reason;
  call.abort(new TaskAbortError(reason, message));
}
