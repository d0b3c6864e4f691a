/**
 * The task state machine as pure functions from record to record, shared by every store: working →
 * input_required → working → a terminal status; input keys unique for the task's lifetime; answers only for
 * outstanding keys; the first terminal writer wins. Each transition returns the next record (frozen, `version + 1`)
 * or `undefined` when the rule refuses it; a store only arbitrates which writer's next record lands (`swap`).
 *
 * Payloads handed in (requests, answers, results, errors) are deep-frozen in place and stored by reference.
 * `stamp` is the writer's clock as ISO 8601; `lastUpdatedAt` never goes backwards whatever it says.
 *
 * @module @mcp-tasks/task-store/transitions
 */

import { deepFreeze } from './deepFreeze.js';
import { checkInterval, checkTtl } from './fieldChecks.js';
import { initialExecution, wokenExecution } from './leaseTransitions.js';
import { type Changes, freezeLease, NO_ANSWERS, NO_INPUT_REQUESTS, next, type Payloads } from './nextRecord.js';
import { rememberFrozenRecord } from './recordFreezer.js';
import {
  type CreateTaskOptions,
  type InputRequest,
  type InputResponse,
  type InputResponses,
  isTerminalStatus,
  type JsonObject,
  type TaskError,
  type TaskOwner,
  type TaskRecord,
  type TaskRecordPatch,
  type TaskStatus,
} from './taskStore.js';

/** The first record of a task: `working`, version 1, with the caller's id and lease. Validates ttl and interval. */
export function newTask(
  taskId: string,
  owner: TaskOwner,
  options: CreateTaskOptions,
  createdAt: string,
  maxTtlMs: number | null = null,
): TaskRecord {
  const ttlMs = checkTtl(options.ttlMs, maxTtlMs);
  const pollIntervalMs = checkInterval(options.pollIntervalMs);
  const lease = options.lease === undefined ? undefined : freezeLease(options.lease.worker, options.lease.until);
  return Object.freeze({
    taskId,
    owner,
    version: 1,
    status: 'working' as TaskStatus,
    statusMessage: options.statusMessage,
    createdAt,
    lastUpdatedAt: createdAt,
    ttlMs,
    pollIntervalMs,
    inputRequests: NO_INPUT_REQUESTS,
    answers: NO_ANSWERS,
    result: undefined,
    error: undefined,
    requestMeta: deepFreeze(options.requestMeta),
    lease,
    execution: options.durable === true ? initialExecution(lease) : undefined,
  });
}

/**
 * A frozen lease, built field by field: V8 gives `Object.freeze({ ...lease })` (a spread copy of an object with a
 * fractional or large number, like an epoch time) a hidden class of its own, about 150 bytes more per task.
 */
/** Applies `patch` (status message, poll interval, ttl) to a live task; refuses a terminal one. */
export function patchTask(current: TaskRecord, patch: TaskRecordPatch, stamp: string): TaskRecord | undefined {
  if (isTerminalStatus(current.status)) return undefined;
  // One object shape whatever the patch holds (unpatched fields keep their value), which keeps the write fast.
  return next(current, stamp, {
    statusMessage: 'statusMessage' in patch ? patch.statusMessage : current.statusMessage,
    pollIntervalMs: 'pollIntervalMs' in patch ? checkInterval(patch.pollIntervalMs) : current.pollIntervalMs,
    ttlMs: 'ttlMs' in patch && patch.ttlMs !== undefined ? checkTtl(patch.ttlMs, null) : current.ttlMs,
  });
}

/** Sets `statusMessage` on a live task, whatever its version (last writer wins). */
export function setStatusMessage(current: TaskRecord, statusMessage: string, stamp: string): TaskRecord | undefined {
  return isTerminalStatus(current.status) ? undefined : next(current, stamp, { statusMessage });
}

/**
 * Issues a fresh input key and moves the task to `input_required`. The key is derived from the new version, which
 * no other write of this task can ever have, so keys are unique for the task's lifetime and increase in issue order.
 */
export function requestInput(
  current: TaskRecord,
  request: InputRequest,
  stamp: string,
):
  | {
      /** The fresh input key. */
      readonly key: string;
      /** The next record, `input_required` with the request under `key`. */
      readonly record: TaskRecord;
    }
  | undefined {
  if (isTerminalStatus(current.status)) return undefined;
  const key = `input-${current.version + 1}`;
  const inputRequests = Object.freeze({ ...current.inputRequests, [key]: deepFreeze(request) });
  return { key, record: next(current, stamp, { status: 'input_required', inputRequests }) };
}

/**
 * Accepts answers for outstanding keys only (other keys, and non-object values, are ignored); all accepted answers
 * land in one record or none does. With no key left outstanding the task returns to `working`. When nothing is
 * accepted the record is `current` itself.
 */
export function resolveInputs(
  current: TaskRecord,
  responses: InputResponses,
  stamp: string,
): {
  /** The keys whose answers were accepted. */
  readonly accepted: readonly string[];
  /** The next record, or `current` itself when nothing was accepted. */
  readonly record: TaskRecord;
} {
  const accepted: string[] = [];
  if (!isTerminalStatus(current.status)) {
    for (const key of Object.keys(responses)) {
      const response = responses[key];
      if (Object.hasOwn(current.inputRequests, key) && typeof response === 'object' && response !== null) {
        accepted.push(key);
      }
    }
  }
  if (accepted.length === 0) return { accepted, record: current };
  const answers: Record<string, InputResponse> = { ...current.answers };
  for (const key of accepted) answers[key] = deepFreeze(responses[key] as InputResponse);
  const changes = inputChanges(current, accepted);
  changes.answers = Object.freeze(answers);
  return { accepted, record: next(current, stamp, changes) };
}

/** Withdraws an outstanding key (its asker gave up); refuses a key that is not outstanding. */
export function withdrawInput(current: TaskRecord, key: string, stamp: string): TaskRecord | undefined {
  if (!Object.hasOwn(current.inputRequests, key)) return undefined;
  return next(current, stamp, inputChanges(current, [key]));
}

/**
 * The status and requests once the `settled` keys (all outstanding) are no longer outstanding, and a parked durable
 * task woken when none is left. Copies the rest instead of deleting from a copy, which would turn the new object
 * into a slow dictionary.
 */
function inputChanges(current: TaskRecord, settled: readonly string[]): Changes {
  const inputRequests: Payloads<InputRequest> = current.inputRequests;
  let remaining: Record<string, InputRequest> | undefined;
  for (const key of Object.keys(inputRequests)) {
    if (settled.includes(key)) continue;
    remaining ??= {};
    remaining[key] = inputRequests[key] as InputRequest;
  }
  if (remaining !== undefined) return { status: 'input_required', inputRequests: Object.freeze(remaining) };
  if (current.execution === undefined) return { status: 'working', inputRequests: NO_INPUT_REQUESTS };
  return { status: 'working', inputRequests: NO_INPUT_REQUESTS, execution: wokenExecution(current, 'working') };
}

/** Ends the task `completed`; refused once any terminal status stands (the first terminal writer wins). */
export function complete(
  current: TaskRecord,
  result: JsonObject,
  stamp: string,
  statusMessage?: string,
): TaskRecord | undefined {
  if (isTerminalStatus(current.status)) return undefined;
  return end(current, stamp, 'completed', statusMessage, deepFreeze(result), undefined);
}

/** Ends the task `failed` with a JSON-RPC error; refused once any terminal status stands. */
export function fail(
  current: TaskRecord,
  error: TaskError,
  stamp: string,
  statusMessage?: string,
): TaskRecord | undefined {
  if (isTerminalStatus(current.status)) return undefined;
  return end(current, stamp, 'failed', statusMessage, undefined, deepFreeze(error));
}

/** Ends the task `cancelled` with `reason` as its status message; refused once any terminal status stands. */
export function cancel(current: TaskRecord, stamp: string, reason?: string): TaskRecord | undefined {
  if (isTerminalStatus(current.status)) return undefined;
  return end(current, stamp, 'cancelled', reason, undefined, undefined);
}

/** A terminal record: it clears outstanding requests, answers and the lease. */
function end(
  current: TaskRecord,
  stamp: string,
  status: TaskStatus,
  statusMessage: string | undefined,
  result: JsonObject | undefined,
  error: TaskError | undefined,
): TaskRecord {
  return next(current, stamp, {
    status,
    statusMessage,
    inputRequests: NO_INPUT_REQUESTS,
    answers: NO_ANSWERS,
    result,
    error,
    lease: undefined,
  });
}

/** True when `a` and `b` look the same to a client (they differ only in lease or version). */
export function sameClientView(a: TaskRecord, b: TaskRecord): boolean {
  return (
    a.status === b.status &&
    a.statusMessage === b.statusMessage &&
    a.lastUpdatedAt === b.lastUpdatedAt &&
    a.ttlMs === b.ttlMs &&
    a.pollIntervalMs === b.pollIntervalMs &&
    a.inputRequests === b.inputRequests &&
    a.result === b.result &&
    a.error === b.error
  );
}

/** Input keys of a record, answered or outstanding, in the order they were issued. */
export function issuedInputKeys(record: TaskRecord): string[] {
  const keys = [...Object.keys(record.answers), ...Object.keys(record.inputRequests)];
  return keys.sort((a, b) => keyOrder(a) - keyOrder(b));
}

function keyOrder(key: string): number {
  const n = Number(key.slice(key.lastIndexOf('-') + 1));
  return Number.isFinite(n) ? n : Number.MAX_SAFE_INTEGER;
}

/**
 * A terminal record kept at most `keepFinishedMs` from `now`: its `ttlMs` becomes the time since `createdAt` plus
 * `keepFinishedMs` when that is shorter than (or there is no) TTL, so every store expires it from the record alone
 * and `tasks/get` reports the real retention. `null` keeps the record as it is (kept until its TTL).
 */
export function keepFinished(record: TaskRecord, keepFinishedMs: number | null, now: number): TaskRecord {
  if (keepFinishedMs === null || !isTerminalStatus(record.status)) return record;
  const kept = Math.max(0, Math.ceil(now - Date.parse(record.createdAt))) + keepFinishedMs;
  if (record.ttlMs !== null && record.ttlMs <= kept) return record;
  const shortened: TaskRecord = Object.freeze({ ...record, ttlMs: kept });
  rememberFrozenRecord(shortened);
  return shortened;
}

export {
  claimTask,
  handBackTask,
  heldLease,
  holdsRun,
  parkTask,
  releaseLease,
  renewLease,
  takeOverLease,
} from './leaseTransitions.js';
export { deepFreeze };
