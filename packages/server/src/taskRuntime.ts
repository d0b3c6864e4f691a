import { ErrorCode, ProtocolError } from '@mcp-tasks/protocol';
import { isTaskStoreError, type TaskRecord, type TaskStore } from '@mcp-tasks/task-store';
import { toCreateTaskResult, toDetailedTask } from './detailedTask.js';
import { invalidParams } from './errors.js';
import { isJsonObject, type JsonObject } from './jsonRpc.js';
import type { InputRequest } from './mrtr.js';
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
}

interface Running {
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

const SHUTDOWN_ERROR = Object.freeze({ code: ErrorCode.InternalError, message: 'Server shut down' });
const ACK: JsonObject = Object.freeze({ resultType: 'complete' });

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
  readonly #running = new Map<string, Running>();
  readonly #pending = new Set<Promise<unknown>>();
  #closed = false;

  constructor(options: TaskRuntimeOptions) {
    this.#options = options;
  }

  /**
   * Starts a task-mode call and resolves with its answer: a `CreateTaskResult`, or the direct result when the tool
   * finished within `immediateResultMs` without touching its task.
   */
  async start(launch: TaskLaunch): Promise<JsonObject> {
    if (this.#closed) throw new ProtocolError(ErrorCode.InternalError, 'Server is shutting down');
    const { owner } = launch;
    const controller = new AbortController();
    let creating: Promise<TaskRecord> | undefined;
    let record: TaskRecord | undefined;
    let outstanding = 0;
    let onRequested: () => void = () => undefined;
    const requested = new Promise<undefined>((resolve) => {
      onRequested = () => resolve(undefined);
    });
    const ensureTask = () => {
      if (creating === undefined) {
        onRequested();
        creating = this.#create(owner, launch.tool, controller).then((created) => {
          record = created;
          return created;
        });
      }
      return creating;
    };
    const taskId = () => {
      if (record === undefined) throw new Error('task not created yet');
      return record.taskId;
    };
    const bridge: TaskBridge = {
      get taskId() {
        return record?.taskId ?? '';
      },
      setStatus: async (message) => {
        await ensureTask();
        await this.#options.store.setStatusMessage(owner, taskId(), message);
      },
      requestInput: async (request) => {
        await ensureTask();
        if (outstanding >= this.#options.maxInputRequestsPerTask) {
          throw new Error(`Too many outstanding input requests (limit ${this.#options.maxInputRequestsPerTask})`);
        }
        outstanding += 1;
        try {
          return await this.#ask(owner, taskId(), request, controller.signal);
        } finally {
          outstanding -= 1;
        }
      },
    };
    if (this.#options.immediateResultMs <= 0) await ensureTask();
    const ctx = launch.makeContext(bridge, controller.signal, () => creating === undefined);
    const outcome = invokeTool(launch.tool, launch.args, ctx);
    if (creating === undefined) {
      const early = await this.#raceGrace(outcome, requested);
      if (early !== undefined && creating === undefined) return this.#directAnswer(early);
    }
    let created: TaskRecord;
    try {
      created = await ensureTask();
    } catch (error) {
      controller.abort(error);
      throw error;
    }
    this.#track(
      created.taskId,
      controller,
      outcome.then((result) => this.#finish(owner, created.taskId, result)),
    );
    return toCreateTaskResult(created);
  }

  /** `tasks/get`: the `DetailedTask` for the current status (S13–S16) or `-32602` (S18). */
  async get(owner: string, taskId: string): Promise<JsonObject> {
    const record = await this.#options.store.get(owner, taskId);
    if (record === undefined) throw notFound(taskId);
    return { resultType: 'complete', ...toDetailedTask(record) };
  }

  /**
   * `tasks/update`: delivers answers for outstanding keys; unknown keys and garbage for them are ignored (S26), a
   * subset is fine (S27). A non-object answer for an outstanding key is `-32602`. Always the empty ack (S24).
   */
  async update(owner: string, taskId: string, inputResponses: unknown): Promise<JsonObject> {
    if (!isJsonObject(inputResponses)) throw invalidParams('Invalid params: inputResponses must be an object');
    const record = await this.#options.store.get(owner, taskId);
    if (record === undefined) throw notFound(taskId);
    const answers: Record<string, JsonObject> = {};
    for (const [key, value] of Object.entries(inputResponses)) {
      if (!Object.hasOwn(record.inputRequests, key)) continue;
      if (!isJsonObject(value)) throw invalidParams(`Invalid params: inputResponses["${key}"] must be an object`);
      answers[key] = value;
    }
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
    this.#running.get(taskId)?.controller.abort(new Error('Task cancelled'));
    return ACK;
  }

  /** Aborts every running tool and resolves once each has settled and written its outcome. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const running of this.#running.values()) running.controller.abort(new Error('Server shutting down'));
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

  async #ask(owner: string, taskId: string, request: InputRequest, signal: AbortSignal): Promise<JsonObject> {
    const { store } = this.#options;
    const issued = await store.requestInput(owner, taskId, request);
    if (!issued.ok) throw new Error('The task has ended');
    try {
      return await store.waitForInput(owner, taskId, issued.key, signal);
    } catch (error) {
      if (signal.aborted) await store.withdrawInput(owner, taskId, issued.key).catch(() => undefined);
      throw error;
    }
  }

  /** Waits up to `immediateResultMs` for the tool; undefined when the time ran out or the tool touched its task. */
  async #raceGrace(outcome: Promise<ToolOutcome>, requested: Promise<undefined>): Promise<ToolOutcome | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const elapsed = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, this.#options.immediateResultMs, undefined);
    });
    try {
      return await Promise.race([outcome, requested, elapsed]);
    } finally {
      clearTimeout(timer);
    }
  }

  #directAnswer(outcome: ToolOutcome): JsonObject {
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
      if (!isTaskStoreError(error, 'closed') && !isTaskStoreError(error, 'task_not_found')) this.#options.report(error);
    }
  }

  #track(taskId: string, controller: AbortController, work: Promise<void>): void {
    const done = work.finally(() => {
      this.#running.delete(taskId);
      this.#pending.delete(done);
      controller.abort(new Error('Task finished'));
    });
    this.#pending.add(done);
    this.#running.set(taskId, { controller, done });
  }
}
