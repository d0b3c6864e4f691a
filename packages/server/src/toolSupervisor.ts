import {
  type CallToolResult,
  type CreateTaskResult,
  createTaskResult,
  ErrorCode,
  isProtocolError,
  onAbort,
  ProtocolError,
} from '@mcp-tasks/protocol';
import { isTaskStoreError, type StepRecord, type TaskRecord } from '@mcp-tasks/task-store';
import { issuedInputKeys } from '@mcp-tasks/task-store/transitions';
import { directAnswer, runEnd, shuttingDown, whileInGrace } from './callAnswers.js';
import { DeferredTask, type DeferredTaskDeps } from './deferredTask.js';
import { type DropTaskDeps, dropTask } from './dropTask.js';
import { DurableCall } from './durableCall.js';
import { JsonInterner } from './jsonInterner.js';
import { OutcomeWriter } from './outcomeWriter.js';
import { type RunningTool, RunningTools } from './runningTools.js';
import { TaskAbortError } from './taskAbort.js';
import type { RunEnd } from './taskExecutor.js';
import { taskLimitError } from './taskLimitError.js';
import { detachRequest } from './toolContext.js';
import { returnedOutcome, runTool, type ToolOutcome, thrownOutcome, toolOutcome } from './toolInvocation.js';
import { newTaskShape, type SupervisorOptions, type ToolLaunch } from './toolLaunch.js';
import type { RegisteredTool } from './toolRegistry.js';

/**
 * Starts, aborts and stops the tools of task-mode calls. A call's task id is reserved at once; the task is created
 * (with this instance's lease, and listened to before it exists, so no event is missed and no subscription can
 * fail after creation) at once or on first use within the grace period. Cancels and expiry reach a running tool
 * through the store's change feed, whichever instance wrote them, as a typed abort reason.
 */
export class ToolSupervisor {
  readonly #options: SupervisorOptions;
  readonly #tools: RunningTools;
  readonly #outcomes: OutcomeWriter;
  /** What dropping an abandoned call's task needs: made once here, so a call carries no object of its own. */
  readonly #drop: DropTaskDeps;
  readonly #taskDeps: DeferredTaskDeps;
  /** Shares the `_meta` of waiting tasks' contexts among tasks of equal `_meta`. */
  readonly #interner = new JsonInterner();
  #closed = false;

  constructor(options: SupervisorOptions) {
    this.#options = options;
    this.#tools = new RunningTools(options.ops, options.workerId);
    this.#outcomes = new OutcomeWriter(options);
    this.#taskDeps = {
      ops: options.ops,
      maxInputRequests: options.maxInputRequestsPerTask,
      durable: options.durable,
    };
    this.#drop = { ops: options.ops, report: options.report, outcomes: this.#outcomes, closed: () => this.#closed };
  }

  /** Tools whose task exists and that this instance runs (a snapshot). */
  runningCalls(): RunningTool[] {
    return this.#tools.runningCalls();
  }

  /** Whether this instance runs the tool of `taskId` and its task exists. */
  isRunning(taskId: string): boolean {
    return this.#tools.runningCall(taskId) !== undefined;
  }

  /**
   * Starts a task-mode call and resolves with its answer: a `CreateTaskResult`, or the direct result when the tool
   * finished within `immediateResultMs` without using its task. Until that answer is decided the call belongs to
   * its request: when `launch.signal` aborts or the server closes, the tool is aborted, a task it already created
   * is cancelled (failed on shutdown), and this rejects. Once a `CreateTaskResult` is returned the task lives on.
   */
  async start(launch: ToolLaunch): Promise<CallToolResult | CreateTaskResult> {
    if (this.#closed) throw shuttingDown();
    if (this.#options.queueDurable === true && this.#isDurable(launch)) return this.#enqueue(launch);
    // What outlives this call's answer (the task, the tool's context, the outcome write) must not capture this
    // function's scope: it holds the request (`launch`, its signal). So those closures are made in small helpers.
    const { owner, signal } = launch;
    const call = this.#tools.track(owner, this.#options.newTaskId(), launch.tool);
    const abandon = () => call.abort(signal.reason);
    let off: (() => void) | undefined;
    if (signal.aborted) abandon();
    else off = onAbort(signal, abandon);
    let work: Promise<unknown> = Promise.resolve();
    let released = false;
    const task = this.#deferredTask(call, () => this.#create(call, launch));
    const live = () => !this.#closed && !signal.aborted;
    try {
      if (this.#options.immediateResultMs <= 0 || launch.alwaysTask === true) await task.create();
      const ctx = launch.makeContext(task, call, whileInGrace(task));
      // The run, not its classified outcome: a waiting task keeps one promise chain (the write below), not two.
      const run = this.#run(call, () => runTool(launch.tool, launch.args, ctx));
      work = run;
      if (task.creation === undefined) {
        const early = await task.outcomeWithinGrace(toolOutcome(run), this.#options.immediateResultMs);
        if (early !== undefined && task.creation === undefined && live()) return directAnswer(early);
      }
      if (live()) {
        const created = await task.create();
        // The store write took time: the caller or the server may have gone meanwhile.
        if (created === undefined) throw new Error('The created task was forgotten before its answer');
        if (live()) {
          task.forgetRecord();
          detachRequest(ctx, this.#interner, launch.keepsNotifying === true);
          this.#writeThenRelease(call, run);
          released = true;
          return createTaskResult(created);
        }
      }
      task.forbidCreation();
      call.abort(this.#closed ? new TaskAbortError('shutdown', 'Server shutting down') : signal.reason);
      if (task.creation !== undefined) work = dropTask(call, task.creation, toolOutcome(run), this.#drop);
      throw this.#closed ? shuttingDown() : new ProtocolError(ErrorCode.InternalError, 'Request cancelled');
    } catch (error) {
      task.forbidCreation();
      call.abort(error);
      // A store closed under a call during shutdown is the shutdown, not an unexpected failure.
      if (this.#closed && !isProtocolError(error)) throw shuttingDown();
      throw error;
    } finally {
      off?.();
      if (!released) this.#releaseWhenSettled(call, work);
    }
  }

  /**
   * Runs a resumable or durable tool again for an existing task (its worker was lost, or a worker claimed it),
   * with the task's stored arguments; its questions replay the answers the task already has, and with `steps` (a
   * durable task's completed steps) its steps replay too. `record` must carry this instance's lease. Resolves once
   * the run ended and its outcome is written (or its task parked or handed back); never rejects.
   */
  resume(
    record: TaskRecord,
    tool: RegisteredTool,
    makeContext: ToolLaunch['makeContext'],
    steps?: readonly StepRecord[],
  ): Promise<RunEnd> {
    const call = this.#tools.track(record.owner, record.taskId, tool);
    call.leaseUntil = record.lease?.until ?? 0;
    if (steps !== undefined) call.durable = new DurableCall(record.execution?.attempt ?? 1, steps);
    this.#tools.markRunning(call);
    this.#tools.listen(call);
    this.#options.telemetry?.runStarting(record, call);
    const task = this.#deferredTask(call, () => Promise.resolve(record), record);
    const ctx = makeContext(task, call, () => false);
    const run = this.#run(call, () => runTool(tool, record.requestMeta?.arguments, ctx));
    return this.#writeThenRelease(call, run).then(() => runEnd(call));
  }

  /** Aborts the tool of `taskId` if this instance runs it. */
  abort(taskId: string, reason: TaskAbortError): void {
    this.#tools.runningCall(taskId)?.abort(reason);
  }

  /**
   * Aborts every tool with a `shutdown` reason and waits up to `graceMs` for them to settle. Resolves with the
   * tools still running then (aborted; their outcome will not be waited for). With `handOver` (the store outlives
   * this instance), a resumable tool that stops by throwing on the abort has its lease released rather than its task
   * failed, so another instance resumes it. A durable tool (whatever `handOver` says: its task lives in the store)
   * is drained instead of aborted: its step in flight finishes, it starts no other (its task is handed back), a
   * question parks its task at once, and one still running when the grace ends is left for the caller to hand back.
   */
  async close(graceMs: number, handOver = false): Promise<readonly RunningTool[]> {
    this.#closed = true;
    this.#outcomes.beginShutdown(handOver);
    const shutdown = new TaskAbortError('shutdown', 'Server shutting down');
    // A durable tool finishes the step in flight: it starts no other, and a question parks its task at once.
    for (const call of this.#tools.calls()) {
      if (call.durable !== undefined) call.durable.drain();
      else call.abort(shutdown);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
    });
    await Promise.race([this.#tools.drained(), deadline]);
    clearTimeout(timer);
    const unfinished = this.#tools.runningCalls();
    for (const call of unfinished) {
      // Handed back by the caller (`TaskRuntime.close`) rather than failed by its outcome.
      if (call.durable !== undefined) call.durable.yielded ??= 'handed_back';
      call.abort(shutdown);
    }
    this.#outcomes.stopRetries();
    return unfinished;
  }

  #releaseWhenSettled(call: RunningTool, work: Promise<unknown>): void {
    const release = () => this.#release(call);
    work.then(release, release);
  }

  /** Runs the tool in its task's trace context, when telemetry is on. */
  #run(call: RunningTool, run: () => Promise<unknown>): Promise<unknown> {
    const telemetry = this.#options.telemetry;
    return telemetry === undefined ? run() : telemetry.runIn(call.taskId, run);
  }

  #release(call: RunningTool): void {
    if (call.state !== 'released') {
      this.#options.telemetry?.runEnded(call.taskId, call, call.tool.definition.name, call.reason);
    }
    this.#tools.release(call);
  }

  /**
   * Once the tool's run settled, writes its outcome and releases the call. Per waiting task this is one reaction,
   * two closures sharing one scope, and one promise, chained to the run itself (not to a classified copy of it).
   */
  #writeThenRelease(call: RunningTool, run: Promise<unknown>): Promise<void> {
    return run.then(
      (value) => this.#finish(call, returnedOutcome(value)),
      (error) => this.#finish(call, thrownOutcome(error)),
    );
  }

  async #finish(call: RunningTool, outcome: ToolOutcome): Promise<void> {
    call.settled = true;
    try {
      // A durable call that parked its task or handed it back leaves it to the next run: nothing to write.
      if (call.durable?.yielded === undefined) await this.#outcomes.write(call, outcome);
    } finally {
      this.#release(call);
    }
  }

  #deferredTask(call: RunningTool, create: () => Promise<TaskRecord>, existing?: TaskRecord): DeferredTask {
    return new DeferredTask({
      deps: this.#taskDeps,
      call,
      create,
      ...(existing === undefined ? {} : { existing: { replayKeys: issuedInputKeys(existing) } }),
    });
  }

  /**
   * Whether the call's task runs durably: a `durable` tool on a durable store, in either era (a 2025-era task's
   * questions are asked again of the client from the store by its `tasks/result`; see `relayStoredQuestions`).
   */
  #isDurable(launch: ToolLaunch): boolean {
    return launch.tool.definition.durable === true && this.#options.durable !== undefined;
  }

  /** A front's answer to a durable call: the task, created queued for the workers; nothing runs here. */
  async #enqueue(launch: ToolLaunch): Promise<CreateTaskResult> {
    await this.#options.ops.ready();
    const taskId = this.#options.newTaskId();
    try {
      const record = await this.#options.ops.create(launch.owner, {
        ...newTaskShape(this.#options, taskId, launch, launch),
        durable: true,
      });
      this.#options.telemetry?.left(taskId, 'queued');
      return createTaskResult(record);
    } catch (error) {
      this.#options.telemetry?.left(taskId, 'not_created', error);
      if (isTaskStoreError(error, 'task_limit')) throw taskLimitError();
      throw error;
    }
  }

  /** Listens to the task (before it exists: nothing to undo if creation fails), then creates it with a lease. */
  async #create(call: RunningTool, launch: ToolLaunch): Promise<TaskRecord> {
    const { ops } = this.#options;
    await ops.ready();
    this.#tools.listen(call);
    const leaseUntil = Date.now() + this.#options.leaseMs;
    const durable = this.#isDurable(launch);
    let record: TaskRecord;
    try {
      record = await ops.create(call.owner, {
        ...newTaskShape(this.#options, call.taskId, launch, call),
        lease: { worker: this.#options.workerId, until: leaseUntil },
        ...(durable ? { durable } : {}),
      });
    } catch (error) {
      this.#tools.unlisten(call);
      this.#options.telemetry?.left(call.taskId, 'not_created', error);
      if (isTaskStoreError(error, 'task_limit')) throw taskLimitError();
      throw error;
    }
    call.leaseUntil = leaseUntil;
    if (durable) call.durable = new DurableCall(1);
    // Listened to until the call is released (an event after an abort changes nothing).
    this.#tools.markRunning(call);
    return record;
  }
}
