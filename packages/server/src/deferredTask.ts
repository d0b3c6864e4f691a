import type { InputRequest, InputResponse } from '@mcp-tasks/protocol';
import type { TaskOperations, TaskRecord } from '@mcp-tasks/task-store';
import type { DurableDeps } from './durableCall.js';
import { awaitOrPark, runDurableStep, type StepFunction } from './durableSteps.js';
import type { RunningTool } from './runningTools.js';
import type { InputChannel, ToolMode } from './toolContext.js';
import type { ToolOutcome } from './toolInvocation.js';
import { retryTransient } from './transientRetry.js';

const ignore = (): void => undefined;

/** What every {@link DeferredTask} of one supervisor shares: made once, so a waiting task carries no copy. */
export interface DeferredTaskDeps {
  readonly ops: TaskOperations;
  /** Most input requests the task may have outstanding at once. */
  readonly maxInputRequests: number;
  /** Steps, parking and hand-backs of durable calls; absent when the store is not durable. */
  readonly durable: DurableDeps | undefined;
}

/** What a {@link DeferredTask} needs from the supervisor. */
export interface DeferredTaskOptions {
  readonly deps: DeferredTaskDeps;
  /**
   * The call: its owner, the id reserved for the task (known to the tool before the task exists), and its abort,
   * which ends the grace period and withdraws a pending input request. Its signal is read only when needed (a task
   * that never waits on it does not create one).
   */
  readonly call: RunningTool;
  /** Creates the task in the store (called at most once); not called when `existing` is given. */
  readonly create: () => Promise<TaskRecord>;
  /** The task as it stands when a resumed tool starts again: its questions are replayed, in issue order. */
  readonly existing?: { readonly replayKeys: readonly string[] };
}

/**
 * The task of one task-mode call, whose creation is deferred until first needed: at once, or, within an
 * immediate-result grace period, when the tool first asks a question or sets its status (which ends
 * {@link outcomeWithinGrace}). Its id is reserved from the start, so `ctx.taskId` is defined during the grace period. Once
 * {@link forbidCreation} was called (the call ended before its answer was decided) a task that does not exist yet
 * is never created, so a tool ignoring its signal cannot leave an orphan behind. It is the tool's input channel:
 * the n-th question of a resumed tool gets the answer (or waits for the outstanding request) of the n-th question
 * the task was asked before.
 */
/**
 * The creation of a task whose record is no longer wanted. A task waits for hours; the record it was created with
 * goes stale at the first lease renewal, and keeping it would double the store's memory per waiting task.
 */
const CREATED: Promise<undefined> = Promise.resolve(undefined);

export class DeferredTask implements InputChannel {
  // Fields, not the options object, and the call rather than its parts: fewer words per waiting task.
  readonly #deps: DeferredTaskDeps;
  readonly #call: RunningTool;
  #creating: Promise<TaskRecord | undefined> | undefined;
  readonly #replayKeys: readonly string[] | undefined;
  /** `options.create` until it is called: it holds the request the call started with, which must not outlive it. */
  #create: (() => Promise<TaskRecord>) | undefined;
  #outstanding = 0;
  #asked = 0;
  /** Made only while {@link outcomeWithinGrace} waits: a task created at once never needs it. */
  #onFirstUse: (() => void) | undefined;

  constructor(options: DeferredTaskOptions) {
    const { create, existing } = options;
    this.#deps = options.deps;
    this.#call = options.call;
    this.#create = create;
    this.#replayKeys = existing?.replayKeys;
    if (existing !== undefined) this.#creating = CREATED;
  }

  get taskId(): string {
    return this.#call.taskId;
  }

  get attempt(): number {
    return this.#call.durable?.attempt ?? 1;
  }

  get mode(): ToolMode {
    return this.#creating === undefined ? 'grace' : 'task';
  }

  /**
   * The pending or finished creation, or undefined while the task is not needed yet. Resolves with the record the
   * task was created with, or with undefined once {@link forgetRecord} was called (and for a resumed task).
   */
  get creation(): Promise<TaskRecord | undefined> | undefined {
    return this.#creating;
  }

  /** Keeps only that the task exists, not the record it was created with (call once the answer is sent). */
  forgetRecord(): void {
    if (this.#creating !== undefined) this.#creating = CREATED;
  }

  /**
   * Creates the task once and resolves with it (see {@link creation}); rejects after {@link forbidCreation} when it
   * did not exist yet.
   */
  create(): Promise<TaskRecord | undefined> {
    if (this.#creating === undefined) {
      // No `create` left: it was used, or creation was forbidden.
      if (this.#create === undefined) return Promise.reject(new Error('The call was abandoned'));
      const create = this.#create;
      this.#create = undefined;
      this.#onFirstUse?.();
      this.#creating = create();
    }
    return this.#creating;
  }

  /** Forbids creating the task from now on. */
  forbidCreation(): void {
    this.#create = undefined;
  }

  /**
   * Waits up to `graceMs` for the tool's outcome; undefined when the time ran out, the tool used its task or the
   * call was aborted (the caller gave up or the server is closing).
   */
  async outcomeWithinGrace(outcome: Promise<ToolOutcome>, graceMs: number): Promise<ToolOutcome | undefined> {
    if (this.#creating !== undefined) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: () => void = () => undefined;
    let aborted = false;
    const elapsed = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, graceMs, undefined);
      onAbort = () => {
        aborted = true;
        resolve(undefined);
      };
      // Listened to without the signal: the grace period must not make every call's AbortSignal.
      this.#call.onAbort(onAbort);
      // The first question or status update ends the wait too.
      this.#onFirstUse = () => resolve(undefined);
    });
    try {
      return aborted ? undefined : await Promise.race([outcome, elapsed]);
    } finally {
      clearTimeout(timer);
      this.#call.offAbort(onAbort);
      this.#onFirstUse = undefined;
    }
  }

  async setStatus(message: string): Promise<void> {
    await this.create();
    const call = this.#call;
    // Retried like the tool's outcome while the store is briefly unavailable and this instance holds the lease, so
    // a database outage shorter than the lease does not fail a tool that reports its progress. The call's signal
    // is read only once a write failed (a task that never needs it does not make one).
    await retryTransient(() => this.#deps.ops.setStatusMessage(call.owner, this.taskId, message).then(ignore), {
      deadline: () => call.leaseUntil,
      get signal() {
        return call.signal;
      },
    });
  }

  async ask(request: InputRequest): Promise<InputResponse> {
    const ordinal = this.#asked;
    this.#asked += 1;
    await this.create();
    const { maxInputRequests } = this.#deps;
    if (this.#outstanding >= maxInputRequests) {
      throw new Error(`Too many outstanding input requests (limit ${maxInputRequests})`);
    }
    this.#outstanding += 1;
    try {
      const replayed = this.#replayKeys?.[ordinal];
      return await this.#await(replayed ?? (await this.#issue(this.taskId, request)));
    } finally {
      this.#outstanding -= 1;
    }
  }

  /**
   * Runs a named step: recorded and replayed for a durable call (see `runDurableStep`); for any other call it just
   * runs (there is no later run to replay it in).
   */
  async step<T>(name: string, run: StepFunction<T>, signal: AbortSignal): Promise<T> {
    await this.create();
    const call = this.#call;
    const { durable } = this.#deps;
    if (call.durable === undefined || durable === undefined) return run(signal);
    return runDurableStep(durable, call, call.durable, name, run);
  }

  awaitDurable(key: string): Promise<InputResponse> | undefined {
    return this.#call.durable === undefined || this.#deps.durable === undefined ? undefined : this.#await(key);
  }

  async #issue(taskId: string, request: InputRequest): Promise<string> {
    const issued = await this.#deps.ops.requestInput(this.#call.owner, taskId, request);
    if (!issued.ok) throw new Error('The task has ended');
    return issued.key;
  }

  async #await(key: string): Promise<InputResponse> {
    const { ops } = this.#deps;
    const call = this.#call;
    const { owner, taskId, signal } = call;
    const { durable } = this.#deps;
    try {
      return await (call.durable === undefined || durable === undefined
        ? ops.waitForInput(owner, taskId, key, signal)
        : awaitOrPark(durable, call, call.durable, key));
    } catch (error) {
      // A parked task keeps its question: the answer is what wakes it.
      if (signal.aborted && call.durable?.yielded === undefined) {
        await ops.withdrawInput(owner, taskId, key).catch(() => undefined);
      }
      throw error;
    }
  }
}
