import { type GetTaskResult, getTaskResult, type ProtocolError, shareJsonText } from '@mcp-tasks/protocol';
import type { TaskOperations, TaskRecord } from '@mcp-tasks/task-store';
import { invalidParams } from './errors.js';
import { withExecutionMeta } from './executionMeta.js';
import { checkInputAnswers } from './inputAnswers.js';
import { isJsonObject, type JsonObject } from './jsonRpc.js';
import { TaskAbortError } from './taskAbort.js';

const ACK: JsonObject = Object.freeze({ resultType: 'complete' });

function notFound(taskId: string): ProtocolError {
  return invalidParams(`Invalid params: task not found or expired: ${taskId}`);
}

/**
 * `tasks/get`, `tasks/update` and `tasks/cancel`, answered from the store, so any instance sharing it can serve
 * them. The capability gate comes before (the caller's job); a task of another owner is `-32602` like an unknown id.
 */
export class TaskMethods {
  readonly #ops: TaskOperations;
  /** Aborts the tool of a task if this instance runs it (others learn of the cancel from the change feed). */
  readonly #abortLocal: (taskId: string, reason: TaskAbortError) => void;
  /**
   * The `tasks/get` result of each record polled, its JSON text kept (`shareJsonText`): a record never changes (a
   * change is a new record), so every poll of an unchanged task answers with the same object and the transport
   * splices the kept text in instead of serializing the task again. Weak: an entry goes with its record.
   */
  readonly #results = new WeakMap<TaskRecord, GetTaskResult>();
  /** The `meta` a durable task's kept result was built from (its `_meta` adds the execution). */
  readonly #durableMeta = new WeakMap<GetTaskResult, JsonObject | undefined>();

  /** Told of each record a `tasks/get` answers with (telemetry's poll count), when given. */
  readonly #onPoll: ((record: TaskRecord) => void) | undefined;

  constructor(
    ops: TaskOperations,
    abortLocal: (taskId: string, reason: TaskAbortError) => void,
    onPoll?: (record: TaskRecord) => void,
  ) {
    this.#ops = ops;
    this.#abortLocal = abortLocal;
    this.#onPoll = onPoll;
  }

  /**
   * `tasks/get`: the `DetailedTask` for the current status, with `meta` (deep-frozen) as the result's `_meta` (plus,
   * for a durable task, its execution under `EXECUTION_META_KEY`). The result is frozen and shared by every poll of
   * the same record.
   */
  async get(owner: string, taskId: string, meta?: JsonObject): Promise<GetTaskResult> {
    const record = await this.#ops.get(owner, taskId);
    if (record === undefined) throw notFound(taskId);
    this.#onPoll?.(record);
    const known = this.#results.get(record);
    if (known !== undefined && this.#metaOf(known) === meta) return known;
    const full = withExecutionMeta(record, meta);
    // Records are deep-frozen by the store contract; one that is not (a store breaking it) is never shared.
    if (!Object.isFrozen(record)) return getTaskResult(record, full);
    const result = shareJsonText(getTaskResult(record, full));
    this.#results.set(record, result);
    if (full !== meta) this.#durableMeta.set(result, meta);
    return result;
  }

  /** The `meta` a kept result was built from. */
  #metaOf(result: GetTaskResult): unknown {
    return this.#durableMeta.has(result) ? this.#durableMeta.get(result) : result._meta;
  }

  /**
   * `tasks/update`: delivers answers for outstanding keys in one write (all or nothing); other keys are ignored
   * whatever their value, a subset is fine. An answer for an outstanding key that does not match its request's
   * result schema is `-32602` naming the key, and then nothing of the update is delivered. Otherwise the empty ack,
   * also for a task that is already terminal.
   */
  async update(owner: string, taskId: string, inputResponses: unknown): Promise<JsonObject> {
    if (!isJsonObject(inputResponses)) throw invalidParams('Invalid params: inputResponses must be an object');
    const record = await this.#ops.get(owner, taskId);
    if (record === undefined) throw notFound(taskId);
    const answers = checkInputAnswers(inputResponses, record.inputRequests);
    if (Object.keys(answers).length > 0) {
      const resolved = await this.#ops.resolveInputs(owner, taskId, answers);
      if (!resolved.found) throw notFound(taskId);
    }
    return ACK;
  }

  /** `tasks/cancel`: moves a live task to `cancelled` and aborts its tool; a terminal task stays. Empty ack. */
  async cancel(owner: string, taskId: string): Promise<JsonObject> {
    const outcome = await this.#ops.cancel(owner, taskId, 'Cancelled by the client');
    if (!outcome.found) throw notFound(taskId);
    this.#abortLocal(taskId, new TaskAbortError('cancelled', 'Task cancelled'));
    return ACK;
  }
}
