import {
  type CallToolResult,
  type CreateTaskResult,
  createTaskResult,
  ErrorCode,
  isProtocolError,
  ProtocolError,
} from '@mcp-tasks/protocol';
import {
  isTaskStoreError,
  isTerminalStatus,
  type TaskEvent,
  type TaskListener,
  type TaskOperations,
  type TaskRecord,
} from '@mcp-tasks/task-store';
import { issuedInputKeys } from '@mcp-tasks/task-store/transitions';
import { DeferredTask } from './deferredTask.js';
import type { JsonObject } from './jsonRpc.js';
import { isTaskAbort, TaskAbortError } from './taskAbort.js';
import { taskLimitError } from './taskLimitError.js';
import { isExpectedStoreError, writeToolOutcome } from './taskOutcomes.js';
import type { InputChannel, ToolContext } from './toolContext.js';
import {
  completeToolResult,
  exceptionMessage,
  invokeTool,
  type ToolOutcome,
  toolErrorResult,
} from './toolInvocation.js';
import type { RegisteredTool } from './toolRegistry.js';
import { retryTransient } from './transientRetry.js';

/** Task settings the supervisor runs tools with. */
export interface SupervisorOptions {
  readonly ops: TaskOperations;
  /** Lifetime of a task from creation; `null` keeps tasks until the store is closed. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  /** A task-mode call that finishes within this many ms is answered directly, without a task. 0 = always a task. */
  readonly immediateResultMs: number;
  readonly maxInputRequestsPerTask: number;
  /** How long a lease lasts without renewal. */
  readonly leaseMs: number;
  /** This instance's worker id, written into the leases it holds. */
  readonly workerId: string;
  /** Reserves a task id before the task exists. */
  readonly newTaskId: () => string;
  readonly report: (error: unknown) => void;
}

/** One task-mode `tools/call`, ready to run. */
export interface ToolLaunch {
  readonly owner: string;
  readonly tool: RegisteredTool;
  readonly args: unknown;
  /** Stored with the task: what a resumed run needs (tool name, and for a resumable tool its arguments). */
  readonly requestMeta: JsonObject;
  /** Builds the tool context; `streaming()` turns false once the `CreateTaskResult` is decided. */
  readonly makeContext: (
    channel: InputChannel,
    abort: { readonly signal: AbortSignal },
    streaming: () => boolean,
  ) => ToolContext;
  /** The request's signal: while the answer is undecided, its abort (the caller gave up) aborts the call. */
  readonly signal: AbortSignal;
  /** Create the task at once, whatever `immediateResultMs` says: the answer is always a `CreateTaskResult`. */
  readonly alwaysTask?: boolean;
  /** The task's lifetime from creation, instead of the supervisor's `ttlMs`. */
  readonly ttlMs?: number | null;
}

/** A tool this instance runs, from its start until its outcome is written. */
export interface RunningTool {
  readonly owner: string;
  readonly taskId: string;
  readonly tool: RegisteredTool;
  readonly controller: AbortController;
  /** Until when this instance's lease is known to hold (epoch ms). */
  leaseUntil: number;
  /** Stops listening to the task's events; called when the call is released. */
  unlisten: () => void;
}

const noop = () => undefined;

function shuttingDown(): ProtocolError {
  return new ProtocolError(ErrorCode.InternalError, 'Server is shutting down');
}

/**
 * Starts, aborts and stops the tools of task-mode calls. A call's task id is reserved at once; the task is created
 * (with this instance's lease, and listened to before it exists, so no event is missed and no subscription can
 * fail after creation) at once or on first use within the grace period. Cancels and expiry reach a running tool
 * through the store's change feed, whichever instance wrote them, as a typed abort reason.
 */
export class ToolSupervisor {
  readonly #options: SupervisorOptions;
  /** Every call from start until its tool settled and its outcome is written. */
  readonly #calls = new Set<RunningTool>();
  /** Calls whose task exists, by task id (cancel, lease renewal). */
  readonly #running = new Map<string, RunningTool>();
  #closed = false;
  /** Aborted once `close` stops waiting: outcome writes still retrying then give up (and clear their timers). */
  readonly #stopRetries = new AbortController();
  /** Set by `close`: resumable tools stopped by the shutdown are released to other instances, not failed. */
  #handOver = false;
  /**
   * Calls by task id, for one event listener shared by every task: a closure per task cost ~100 B of heap for each
   * waiting task. A second call of a task already listened to here gets a listener of its own.
   */
  readonly #listened = new Map<string, RunningTool>();
  readonly #onTaskEvent: TaskListener = (event) => {
    const call = this.#listened.get(event.record.taskId);
    if (call !== undefined) this.#onEvent(call, event);
  };
  /** Set while `close` waits for the last call to be released. */
  #onDrained: (() => void) | undefined;

  constructor(options: SupervisorOptions) {
    this.#options = options;
  }

  /** Tools whose task exists and that this instance runs. */
  get running(): ReadonlyMap<string, RunningTool> {
    return this.#running;
  }

  /**
   * Starts a task-mode call and resolves with its answer: a `CreateTaskResult`, or the direct result when the tool
   * finished within `immediateResultMs` without using its task. Until that answer is decided the call belongs to
   * its request: when `launch.signal` aborts or the server closes, the tool is aborted, a task it already created
   * is cancelled (failed on shutdown), and this rejects. Once a `CreateTaskResult` is returned the task lives on.
   */
  async start(launch: ToolLaunch): Promise<CallToolResult | CreateTaskResult> {
    if (this.#closed) throw shuttingDown();
    // What outlives this call's answer (the task, the tool's context, the outcome write) must not capture this
    // function's scope: it holds the request (`launch`, its signal). So those closures are made in small helpers.
    const { owner, signal } = launch;
    const call = this.#track(owner, this.#options.newTaskId(), launch.tool);
    const abandon = () => call.controller.abort(signal.reason);
    if (signal.aborted) abandon();
    else signal.addEventListener('abort', abandon, { once: true });
    let work: Promise<unknown> = Promise.resolve();
    let released = false;
    const task = this.#deferredTask(call, () => this.#create(call, launch));
    const live = () => !this.#closed && !signal.aborted;
    try {
      if (this.#options.immediateResultMs <= 0 || launch.alwaysTask === true) await task.create();
      const ctx = launch.makeContext(task, call.controller, whileInGrace(task));
      const outcome = invokeTool(launch.tool, launch.args, ctx);
      work = outcome;
      if (task.creation === undefined) {
        const early = await task.outcomeWithinGrace(outcome, this.#options.immediateResultMs);
        if (early !== undefined && task.creation === undefined && live()) return directAnswer(early);
      }
      if (live()) {
        const created = await task.create();
        // The store write took time: the caller or the server may have gone meanwhile.
        if (created === undefined) throw new Error('The created task was forgotten before its answer');
        if (live()) {
          task.forgetRecord();
          this.#writeThenRelease(call, outcome);
          released = true;
          return createTaskResult(created);
        }
      }
      task.forbidCreation();
      call.controller.abort(this.#closed ? new TaskAbortError('shutdown', 'Server shutting down') : signal.reason);
      if (task.creation !== undefined) work = this.#dropTask(call, task.creation, outcome);
      throw this.#closed ? shuttingDown() : new ProtocolError(ErrorCode.InternalError, 'Request cancelled');
    } catch (error) {
      task.forbidCreation();
      call.controller.abort(error);
      // A store closed under a call during shutdown is the shutdown, not an unexpected failure.
      if (this.#closed && !isProtocolError(error)) throw shuttingDown();
      throw error;
    } finally {
      signal.removeEventListener('abort', abandon);
      if (!released) this.#releaseWhenSettled(call, work);
    }
  }

  /**
   * Runs a resumable tool again for a task whose worker was lost, with the task's stored arguments; its questions
   * replay the answers the task already has. `record` must carry this instance's lease.
   */
  resume(record: TaskRecord, tool: RegisteredTool, makeContext: ToolLaunch['makeContext']): void {
    const call = this.#track(record.owner, record.taskId, tool);
    call.leaseUntil = record.lease?.until ?? 0;
    this.#running.set(record.taskId, call);
    call.unlisten = this.#listen(call);
    const task = this.#deferredTask(call, () => Promise.resolve(record), record);
    const args = record.requestMeta?.arguments;
    const outcome = invokeTool(
      tool,
      args,
      makeContext(task, call.controller, () => false),
    );
    this.#writeThenRelease(call, outcome);
  }

  /** Aborts the tool of `taskId` if this instance runs it. */
  abort(taskId: string, reason: TaskAbortError): void {
    this.#running.get(taskId)?.controller.abort(reason);
  }

  /**
   * Aborts every tool with a `shutdown` reason and waits up to `graceMs` for them to settle. Resolves with the
   * tools still running then (their outcome will not be waited for). With `handOver` (the store outlives this
   * instance), a resumable tool that stops by throwing on the abort has its lease released rather than its task
   * failed, so another instance resumes it.
   */
  async close(graceMs: number, handOver = false): Promise<readonly RunningTool[]> {
    this.#closed = true;
    this.#handOver = handOver;
    for (const call of this.#calls) call.controller.abort(new TaskAbortError('shutdown', 'Server shutting down'));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    const drained =
      this.#calls.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            this.#onDrained = resolve;
          });
    await Promise.race([drained, deadline]);
    clearTimeout(timer);
    this.#stopRetries.abort();
    return [...this.#running.values()];
  }

  #track(owner: string, taskId: string, tool: RegisteredTool): RunningTool {
    const call: RunningTool = { owner, taskId, tool, controller: new AbortController(), leaseUntil: 0, unlisten: noop };
    this.#calls.add(call);
    return call;
  }

  /** Forgets `call` once its tool settled and its outcome is written (or dropped). */
  #release(call: RunningTool): void {
    this.#calls.delete(call);
    if (this.#running.get(call.taskId) === call) this.#running.delete(call.taskId);
    this.#unlisten(call, call.unlisten);
    call.controller.abort(new Error('Task finished'));
    if (this.#calls.size === 0) this.#onDrained?.();
  }

  #releaseWhenSettled(call: RunningTool, work: Promise<unknown>): void {
    const release = () => this.#release(call);
    work.then(release, release);
  }

  /** Once the tool settled, writes its outcome and releases the call: one closure per waiting task, not two. */
  #writeThenRelease(call: RunningTool, outcome: Promise<ToolOutcome>): void {
    void outcome.then(async (result) => {
      try {
        await this.#writeOutcome(call, result);
      } finally {
        this.#release(call);
      }
    });
  }

  /** Aborts `call` on a cancel, expiry or lease change of its task, from this or another instance. */
  #listen(call: RunningTool): () => void {
    const { ops } = this.#options;
    if (this.#listened.has(call.taskId)) {
      return ops.listen(call.owner, call.taskId, (event) => this.#onEvent(call, event));
    }
    this.#listened.set(call.taskId, call);
    return ops.listen(call.owner, call.taskId, this.#onTaskEvent);
  }

  #unlisten(call: RunningTool, unlisten: () => void): void {
    unlisten();
    if (this.#listened.get(call.taskId) === call) this.#listened.delete(call.taskId);
  }

  #deferredTask(call: RunningTool, create: () => Promise<TaskRecord>, existing?: TaskRecord): DeferredTask {
    return new DeferredTask({
      ops: this.#options.ops,
      owner: call.owner,
      taskId: call.taskId,
      maxInputRequests: this.#options.maxInputRequestsPerTask,
      create,
      abort: call.controller,
      ...(existing === undefined ? {} : { existing: { replayKeys: issuedInputKeys(existing) } }),
    });
  }

  /** Listens to the task (before it exists: nothing to undo if creation fails), then creates it with a lease. */
  async #create(call: RunningTool, launch: ToolLaunch): Promise<TaskRecord> {
    const { ops } = this.#options;
    await ops.ready();
    const unlisten = this.#listen(call);
    const leaseUntil = Date.now() + this.#options.leaseMs;
    let record: TaskRecord;
    try {
      record = await ops.create(call.owner, {
        taskId: call.taskId,
        ttlMs: launch.ttlMs === undefined ? this.#options.ttlMs : launch.ttlMs,
        pollIntervalMs: this.#options.pollIntervalMs,
        requestMeta: launch.requestMeta,
        lease: { worker: this.#options.workerId, until: leaseUntil },
      });
    } catch (error) {
      this.#unlisten(call, unlisten);
      if (isTaskStoreError(error, 'task_limit')) throw taskLimitError();
      throw error;
    }
    call.leaseUntil = leaseUntil;
    // Kept until the call is released (an event after an abort changes nothing), not tied to the signal by a listener.
    call.unlisten = unlisten;
    this.#running.set(call.taskId, call);
    return record;
  }

  /** A change to a running task, from this or another instance: cancel, expiry or a lease taken over abort it. */
  #onEvent(call: RunningTool, event: TaskEvent): void {
    if (event.type === 'expired') {
      call.controller.abort(new TaskAbortError('expired', 'Task expired'));
    } else if (event.record.status === 'cancelled') {
      call.controller.abort(new TaskAbortError('cancelled', 'Task cancelled'));
    } else if (isTerminalStatus(event.record.status)) {
      call.controller.abort(new TaskAbortError('lease_lost', `Task ended elsewhere: ${event.record.status}`));
    } else if (event.record.lease !== undefined && event.record.lease.worker !== this.#options.workerId) {
      call.controller.abort(new TaskAbortError('lease_lost', `Worker ${event.record.lease.worker} took the task over`));
    }
  }

  /**
   * Writes the outcome; while the store is only unavailable (a database restarting), retries with backoff for as
   * long as this instance's lease holds and the server has not stopped waiting for its tools.
   */
  async #writeOutcome(call: RunningTool, outcome: ToolOutcome): Promise<void> {
    const reason: unknown = call.controller.signal.reason;
    const { ops, workerId } = this.#options;
    const handOver =
      this.#handOver &&
      outcome.kind === 'exception' &&
      isTaskAbort(reason, 'shutdown') &&
      call.tool.definition.resumable === true;
    const write = handOver
      ? () => ops.releaseLease(call.owner, call.taskId, workerId).then(() => undefined)
      : () => writeToolOutcome(ops, call.owner, call.taskId, outcome, reason);
    try {
      await retryTransient(write, {
        deadline: () => call.leaseUntil,
        signal: this.#stopRetries.signal,
      });
    } catch (error) {
      if (!isExpectedStoreError(error)) this.#options.report(error);
    }
  }

  /**
   * Ends a task whose `CreateTaskResult` will never be sent: cancelled when its caller gave up, or, on shutdown,
   * written once the aborted tool settles (failed unless it still produced a result).
   */
  async #dropTask(call: RunningTool, creation: Promise<unknown>, outcome: Promise<ToolOutcome>): Promise<void> {
    const created = await creation.then(
      () => true,
      () => false,
    );
    if (!created) {
      await outcome;
      return;
    }
    if (this.#closed) {
      await this.#writeOutcome(call, await outcome);
      return;
    }
    await this.#options.ops
      .cancel(call.owner, call.taskId, 'The request that started this task was abandoned')
      .catch((error: unknown) => {
        if (!isExpectedStoreError(error)) this.#options.report(error);
      });
    await outcome;
  }
}

/** Whether a call still streams request-scoped notifications: only while its task is not created. */
function whileInGrace(task: DeferredTask): () => boolean {
  return () => task.creation === undefined;
}

/** The answer of a call that finished within its grace period without a task. */
function directAnswer(outcome: ToolOutcome): CallToolResult {
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
