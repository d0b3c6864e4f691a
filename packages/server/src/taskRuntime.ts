import {
  type CallToolResult,
  type CreateTaskResult,
  createTaskResult,
  ErrorCode,
  type GetTaskResult,
  getTaskResult,
  isProtocolError,
  ProtocolError,
} from '@mcp-tasks/protocol';
import { isTaskStoreError, type TaskRecord, type TaskStore } from '@mcp-tasks/task-store';
import { invalidParams } from './errors.js';
import { checkInputAnswers } from './inputAnswers.js';
import { isJsonObject, type JsonObject } from './jsonRpc.js';
import { LazyTask } from './lazyTask.js';
import type { TaskBridge, ToolContext } from './toolContext.js';
import {
  completeToolResult,
  exceptionMessage,
  invokeTool,
  type ToolOutcome,
  toolErrorResult,
} from './toolInvocation.js';
import type { RegisteredTool } from './toolRegistry.js';

/** Task settings of a server. */
export interface TaskRuntimeOptions {
  readonly store: TaskStore;
  /** Lifetime of a task from creation; `null` keeps tasks until the store is closed. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  /** A task-mode call that finishes within this many ms is answered directly, without a task. 0 = always a task. */
  readonly immediateResultMs: number;
  /** Most input requests one task may have outstanding at once. */
  readonly maxInputRequestsPerTask: number;
  readonly report: (error: unknown) => void;
}

/** One task-mode `tools/call`, ready to run. */
export interface TaskLaunch {
  readonly owner: string;
  readonly tool: RegisteredTool;
  readonly args: unknown;
  /** Builds the tool context; `streaming()` turns false once the `CreateTaskResult` is decided (decision 10). */
  readonly makeContext: (task: TaskBridge, signal: AbortSignal, streaming: () => boolean) => ToolContext;
  /** The request's signal: while the answer is undecided, its abort (the caller gave up) aborts the call. */
  readonly signal: AbortSignal;
}

const SHUTDOWN_ERROR = Object.freeze({ code: ErrorCode.InternalError, message: 'Server shut down' });
const ACK: JsonObject = Object.freeze({ resultType: 'complete' });

const noop = () => undefined;

function shuttingDown(): ProtocolError {
  return new ProtocolError(ErrorCode.InternalError, 'Server is shutting down');
}

function notFound(taskId: string): ProtocolError {
  return invalidParams(`Invalid params: task not found or expired: ${taskId}`);
}

/**
 * Runs tools as tasks and answers `tasks/get`, `tasks/update` and `tasks/cancel`. The store is the source of truth:
 * the task exists before its `CreateTaskResult` is returned (S9), every change is a store write, and the first
 * terminal write wins (decision 6), so a cancel racing a completion, or a late result from a tool that ignored its
 * signal, resolves by rule. The capability gate (S19) is the caller's job and comes before any lookup.
 */
export class TaskRuntime {
  readonly #options: TaskRuntimeOptions;
  /** The controller of every call, from `start` until its tool has settled and its outcome is written. */
  readonly #live = new Set<AbortController>();
  /** The controllers of calls that became tasks, by task id (for `tasks/cancel`). */
  readonly #running = new Map<string, AbortController>();
  /** Settles when the matching call is over; {@link close} waits for all. */
  readonly #pending = new Set<Promise<void>>();
  #closed = false;

  constructor(options: TaskRuntimeOptions) {
    this.#options = options;
  }

  /**
   * Starts a task-mode call and resolves with its answer: a `CreateTaskResult`, or the direct result when the tool
   * finished within `immediateResultMs` without touching its task. Until that answer is decided the call belongs to
   * its request: when `launch.signal` aborts (the caller gave up) or the server closes, the tool is aborted, a task
   * it already created is cancelled (failed on shutdown), and `start` rejects, so no task outlives an answer nobody
   * received. Once a `CreateTaskResult` is returned the task lives on its own. {@link close} waits for every call.
   */
  async start(launch: TaskLaunch): Promise<CallToolResult | CreateTaskResult> {
    if (this.#closed) throw shuttingDown();
    const { owner, signal } = launch;
    const controller = new AbortController();
    const abandon = () => controller.abort(signal.reason);
    if (signal.aborted) abandon();
    else signal.addEventListener('abort', abandon, { once: true });
    this.#live.add(controller);
    let release: () => void = () => undefined;
    const settled = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.#pending.add(settled);
    let work: Promise<unknown> = Promise.resolve();
    let taskIdTracked: string | undefined;

    const task = new LazyTask({
      store: this.#options.store,
      owner,
      maxInputRequests: this.#options.maxInputRequestsPerTask,
      create: () => this.#create(owner, launch.tool, controller),
      signal: controller.signal,
    });
    try {
      if (this.#options.immediateResultMs <= 0) await task.ensure();
      const ctx = launch.makeContext(task.bridge, controller.signal, () => task.creating === undefined);
      const outcome = invokeTool(launch.tool, launch.args, ctx);
      work = outcome;
      if (task.creating === undefined) {
        const early = await task.raceGrace(outcome, this.#options.immediateResultMs);
        if (early !== undefined && task.creating === undefined && !this.#closed && !signal.aborted) {
          return this.#directAnswer(early);
        }
      }
      if (!this.#closed && !signal.aborted) {
        const created = await task.ensure();
        // The store write took time: the caller or the server may have gone meanwhile.
        if (!this.#closed && !signal.aborted) {
          taskIdTracked = created.taskId;
          this.#running.set(created.taskId, controller);
          work = outcome.then((result) => this.#finish(owner, created.taskId, result));
          return createTaskResult(created);
        }
      }
      task.refuse();
      controller.abort(this.#closed ? new Error('Server shutting down') : signal.reason);
      if (task.creating !== undefined) work = this.#dropTask(owner, task.creating, outcome);
      throw this.#closed ? shuttingDown() : new ProtocolError(ErrorCode.InternalError, 'Request cancelled');
    } catch (error) {
      task.refuse();
      controller.abort(error);
      // A store closed under a call during shutdown is the shutdown, not an unexpected failure.
      if (this.#closed && !isProtocolError(error)) throw shuttingDown();
      throw error;
    } finally {
      signal.removeEventListener('abort', abandon);
      void work.then(noop, noop).then(() => {
        if (taskIdTracked !== undefined) this.#running.delete(taskIdTracked);
        this.#live.delete(controller);
        this.#pending.delete(settled);
        controller.abort(new Error('Task finished'));
        release();
      });
    }
  }

  /**
   * `tasks/get`: the `DetailedTask` for the current status (S13–S16) or `-32602` (S18). `meta` becomes the
   * result's `_meta`, so the hottest read builds its result in one object.
   */
  async get(owner: string, taskId: string, meta?: GetTaskResult['_meta']): Promise<GetTaskResult> {
    const record = await this.#options.store.get(owner, taskId);
    if (record === undefined) throw notFound(taskId);
    return getTaskResult(record, meta);
  }

  /**
   * `tasks/update`: delivers answers for outstanding keys; keys that are not outstanding (never issued, answered,
   * withdrawn) are ignored whatever their value (S26), and a subset is fine (S27). An answer for an outstanding key
   * that does not match its request's result schema is `-32602` naming the key, and then nothing of the update is
   * delivered. Otherwise the empty ack (S24), also for a task that is already terminal (decision 7).
   */
  async update(owner: string, taskId: string, inputResponses: unknown): Promise<JsonObject> {
    if (!isJsonObject(inputResponses)) throw invalidParams('Invalid params: inputResponses must be an object');
    const record = await this.#options.store.get(owner, taskId);
    if (record === undefined) throw notFound(taskId);
    const asked: Record<string, string> = {};
    for (const [key, request] of Object.entries(record.inputRequests)) asked[key] = request.method;
    const answers = checkInputAnswers(inputResponses, asked);
    if (Object.keys(answers).length > 0) {
      const resolved = await this.#options.store.resolveInputs(owner, taskId, answers);
      if (!resolved.found) throw notFound(taskId);
    }
    return ACK;
  }

  /**
   * `tasks/cancel`: moves a live task to `cancelled` and aborts its tool; a terminal task is left as it is. Both get
   * the empty ack (S28, decision 7); an unknown id is `-32602` (S29).
   */
  async cancel(owner: string, taskId: string): Promise<JsonObject> {
    const outcome = await this.#options.store.cancel(owner, taskId, 'Cancelled by the client');
    if (!outcome.found) throw notFound(taskId);
    this.#running.get(taskId)?.abort(new Error('Task cancelled'));
    return ACK;
  }

  /** Aborts every running tool and resolves once each has settled and written its outcome. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const controller of this.#live) controller.abort(new Error('Server shutting down'));
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }

  async #create(owner: string, tool: RegisteredTool, controller: AbortController): Promise<TaskRecord> {
    const { store } = this.#options;
    let record: TaskRecord;
    try {
      record = await store.create(owner, {
        ttlMs: this.#options.ttlMs,
        pollIntervalMs: this.#options.pollIntervalMs,
        requestMeta: { method: 'tools/call', name: tool.definition.name },
      });
    } catch (error) {
      if (isTaskStoreError(error, 'task_limit')) {
        throw new ProtocolError(
          ErrorCode.InternalError,
          'Too many live tasks for this principal; cancel or await some',
        );
      }
      throw error;
    }
    // Cancels and expiry may come from another instance sharing the store: the store's events abort the tool.
    const unsubscribe = await store.subscribe(owner, record.taskId, (event) => {
      if (event.type === 'expired') controller.abort(new Error('Task expired'));
      else if (event.record.status === 'cancelled') controller.abort(new Error('Task cancelled'));
    });
    controller.signal.addEventListener('abort', unsubscribe, { once: true });
    return record;
  }

  /**
   * Ends a task whose `CreateTaskResult` will never be sent: cancelled when its caller gave up, or, on shutdown,
   * written by {@link #finish} once the aborted tool settles (failed unless it still produced a result). Resolves
   * when the tool has settled.
   */
  async #dropTask(owner: string, creating: Promise<TaskRecord>, outcome: Promise<ToolOutcome>): Promise<void> {
    const created = await creating.catch(noop);
    if (created === undefined) {
      await outcome;
      return;
    }
    if (this.#closed) {
      await this.#finish(owner, created.taskId, await outcome);
      return;
    }
    await this.#options.store
      .cancel(owner, created.taskId, 'The request that started this task was abandoned')
      .catch((error: unknown) => this.#reportStoreError(error));
    await outcome;
  }

  #directAnswer(outcome: ToolOutcome): CallToolResult {
    switch (outcome.kind) {
      case 'result':
        return completeToolResult(outcome.result);
      case 'protocolError':
        throw outcome.error;
      case 'exception':
        return completeToolResult(toolErrorResult(exceptionMessage(outcome.error)));
      case 'input':
        throw new Error('A task-mode tool returned input_required; use collectInput for MRTR');
    }
  }

  /** Writes the tool's outcome; a lost race (already cancelled or expired) is simply dropped. */
  async #finish(owner: string, taskId: string, outcome: ToolOutcome): Promise<void> {
    const { store } = this.#options;
    try {
      switch (outcome.kind) {
        case 'result':
          await store.complete(owner, taskId, completeToolResult(outcome.result));
          return;
        case 'protocolError':
          await store.fail(owner, taskId, outcome.error.toJSON(), outcome.error.message);
          return;
        case 'exception':
          if (this.#closed) {
            await store.fail(owner, taskId, SHUTDOWN_ERROR, 'The server shut down before the task finished');
          } else {
            await store.complete(owner, taskId, completeToolResult(toolErrorResult(exceptionMessage(outcome.error))));
          }
          return;
        case 'input':
          await store.fail(
            owner,
            taskId,
            { code: ErrorCode.InternalError, message: 'Internal error' },
            'The tool asked for input the MRTR way while running as a task',
          );
          return;
      }
    } catch (error) {
      this.#reportStoreError(error);
    }
  }

  /** A write that lost to a closed store or an expired task is expected; anything else is reported. */
  #reportStoreError(error: unknown): void {
    if (!isTaskStoreError(error, 'closed') && !isTaskStoreError(error, 'task_not_found')) this.#options.report(error);
  }
}
