import { ErrorCode, type LegacyListTasksResult, type LegacyTask, ProtocolError } from '@mcp-tasks/protocol';
import { isTaskStoreError, isTerminalStatus, type TaskOperations, type TaskRecord } from '@mcp-tasks/task-store';
import { invalidParams } from '../errors.js';
import type { JsonObject } from '../jsonRpc.js';
import { TaskAbortError } from '../taskAbort.js';
import type { LegacyPeerAsk } from './legacyPeerAsk.js';
import type { LegacyResultStreams } from './legacyResultStreams.js';
import { relayStoredQuestions } from './legacyStoredQuestions.js';
import { isLegacyTask, legacyTaskPayload, legacyTaskStatus, toLegacyTask } from './legacyTaskWire.js';

/** What the 2025-11-25 task methods need from the server's task runtime. */
export interface LegacyTaskMethodsDeps {
  readonly ops: TaskOperations;
  /** Aborts the tool of a task if this instance runs it (the supervisor's `abort`). */
  readonly abortLocal: (taskId: string, reason: TaskAbortError) => void;
  /** Most tasks on one `tasks/list` page. @default 50 */
  readonly listPageSize?: number;
  /** Where a waiting `tasks/result` offers its stream for the task's questions (shared with the task calls). */
  readonly streams?: LegacyResultStreams;
  /** Told of each record a `tasks/get` answers with (telemetry's poll count). */
  readonly onPoll?: ((record: TaskRecord) => void) | undefined;
}

function notFound(taskId: string): ProtocolError {
  return invalidParams(`Invalid params: task not found or expired: ${taskId}`);
}

/**
 * The 2025-11-25 experimental task methods (`tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`), answered
 * from the shared store, so any instance sharing it can serve them. Every call names the owner: the principal, or
 * for an unauthenticated session the session itself. Only tasks created by a task-augmented 2025-11-25 request are
 * visible here; any other id, like an unknown, expired or foreign one, is `-32602`.
 */
export class LegacyTaskMethods {
  readonly #ops: TaskOperations;
  readonly #abortLocal: (taskId: string, reason: TaskAbortError) => void;
  readonly #pageSize: number;
  readonly #streams: LegacyResultStreams | undefined;
  readonly #onPoll: ((record: TaskRecord) => void) | undefined;

  constructor(deps: LegacyTaskMethodsDeps) {
    this.#ops = deps.ops;
    this.#onPoll = deps.onPoll;
    this.#streams = deps.streams;
    this.#abortLocal = deps.abortLocal;
    this.#pageSize = deps.listPageSize ?? 50;
  }

  /** `tasks/get`: the flat `Task` (no result, no related-task `_meta`). */
  async get(owner: string, taskId: string): Promise<LegacyTask> {
    const record = await this.#find(owner, taskId);
    this.#onPoll?.(record);
    return toLegacyTask(record);
  }

  /**
   * `tasks/result`: waits until the task is terminal (or `signal` aborts: rejects with its reason), then answers
   * exactly what the tool call would have: its `CallToolResult` (also one with `isError: true`) with the
   * related-task `_meta`, or throws the JSON-RPC error it failed with. A cancelled task has no outcome: `-32603`.
   * A task that expires meanwhile is `-32602`. With `ask` (the way to the client on this request's own stream),
   * the task's questions go there while this call waits. A durable task's open questions are read from the store
   * and sent through `ask` (else `session`), and the answers resolved into the store: this is how a parked task is
   * answered from any instance, and how the questions of its later runs reach the client (see
   * `relayStoredQuestions`). A client that refuses such a question, or answers it malformed, gets `-32603` naming
   * it; the task keeps waiting, and the next `tasks/result` asks again.
   */
  async result(
    owner: string,
    taskId: string,
    signal: AbortSignal,
    ask?: LegacyPeerAsk,
    session?: LegacyPeerAsk,
  ): Promise<JsonObject> {
    const record = await this.#find(owner, taskId);
    // A durable task's questions are relayed from the store, so a waiting `tasks/result` takes them even without
    // a stream of its own (through the session, then).
    const durable = record.execution !== undefined;
    const stream = durable ? (ask ?? session) : ask;
    const release = stream === undefined ? undefined : this.#streams?.hold(taskId, stream, signal);
    const relay =
      durable && stream !== undefined
        ? relayStoredQuestions({ ops: this.#ops, streams: this.#streams }, record, stream, signal)
        : undefined;
    let ended: TaskRecord | undefined;
    try {
      ended = await this.#ops.waitForEnd(owner, taskId, relay?.signal ?? signal);
    } finally {
      release?.();
      relay?.stop();
    }
    if (ended === undefined) throw notFound(taskId);
    switch (ended.status) {
      case 'completed':
        return legacyTaskPayload(ended.result ?? { content: [] }, taskId);
      case 'failed': {
        const error = ended.error ?? { code: ErrorCode.InternalError, message: 'Task failed' };
        throw new ProtocolError(error.code, error.message, error.data);
      }
      default:
        throw new ProtocolError(ErrorCode.InternalError, `Task ${taskId} was cancelled; it has no result`);
    }
  }

  /**
   * `tasks/list`: one page of the owner's 2025-11-25 tasks, oldest first, `nextCursor` when more may follow. A
   * page may hold fewer tasks than the page size (tasks of the other wire are left out). A cursor this server did
   * not hand out is `-32602`.
   */
  async list(owner: string, cursor: string | undefined): Promise<LegacyListTasksResult> {
    try {
      const page = await this.#ops.list(owner, { limit: this.#pageSize, ...(cursor === undefined ? {} : { cursor }) });
      const tasks = page.tasks.filter(isLegacyTask).map(toLegacyTask);
      return page.nextCursor === undefined ? { tasks } : { tasks, nextCursor: page.nextCursor };
    } catch (error) {
      if (isTaskStoreError(error, 'invalid_cursor')) throw invalidParams(`Invalid params: ${error.message}`);
      throw error;
    }
  }

  /**
   * `tasks/cancel`: moves a live task to `cancelled` (before answering), aborts its tool and answers the cancelled
   * `Task`. A task that is already terminal on this wire (a tool that returned `isError: true` counts as failed)
   * is `-32602`, as is one that reached a terminal status while this call ran.
   */
  async cancel(owner: string, taskId: string): Promise<LegacyTask> {
    const record = await this.#find(owner, taskId);
    if (isTerminalStatus(legacyTaskStatus(record))) throw alreadyTerminal(record);
    const outcome = await this.#ops.cancel(owner, taskId, 'Cancelled by the client');
    if (!outcome.found) throw notFound(taskId);
    if (!outcome.won) throw alreadyTerminal(outcome.record);
    this.#abortLocal(taskId, new TaskAbortError('cancelled', 'Task cancelled'));
    return toLegacyTask(outcome.record);
  }

  async #find(owner: string, taskId: string): Promise<TaskRecord> {
    const record = await this.#ops.get(owner, taskId);
    if (record === undefined || !isLegacyTask(record)) throw notFound(taskId);
    return record;
  }
}

function alreadyTerminal(record: TaskRecord): ProtocolError {
  return invalidParams(
    `Invalid params: task ${record.taskId} is already ${legacyTaskStatus(record)} and cannot be cancelled`,
  );
}
