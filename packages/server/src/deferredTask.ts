import type { InputRequest, InputResponse } from '@mcp-tasks/protocol';
import type { TaskOperations, TaskRecord } from '@mcp-tasks/task-store';
import type { InputChannel, ToolMode } from './toolContext.js';
import type { ToolOutcome } from './toolInvocation.js';

/** What a {@link DeferredTask} needs from the supervisor. */
export interface DeferredTaskOptions {
  readonly ops: TaskOperations;
  readonly owner: string;
  /** The id reserved for the task (it is known to the tool before the task exists). */
  readonly taskId: string;
  /** Most input requests the task may have outstanding at once. */
  readonly maxInputRequests: number;
  /** Creates the task in the store (called at most once); not called when `existing` is given. */
  readonly create: () => Promise<TaskRecord>;
  /** The call's signal: aborting it ends the grace period and withdraws a pending input request. */
  readonly signal: AbortSignal;
  /** The task as it stands when a resumed tool starts again: its questions are replayed, in issue order. */
  readonly existing?: { readonly record: TaskRecord; readonly replayKeys: readonly string[] };
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
export class DeferredTask implements InputChannel {
  readonly taskId: string;
  readonly #options: Omit<DeferredTaskOptions, 'create'>;
  #creating: Promise<TaskRecord> | undefined;
  /** `options.create` until it is called: it holds the request the call started with, which must not outlive it. */
  #create: (() => Promise<TaskRecord>) | undefined;
  #forbidden = false;
  #outstanding = 0;
  #asked = 0;
  /** Made only while {@link outcomeWithinGrace} waits: a task created at once never needs it. */
  #onFirstUse: (() => void) | undefined;

  constructor(options: DeferredTaskOptions) {
    const { create, ...rest } = options;
    this.#options = rest;
    this.taskId = options.taskId;
    this.#create = create;
    if (options.existing !== undefined) this.#creating = Promise.resolve(options.existing.record);
  }

  get mode(): ToolMode {
    return this.#creating === undefined ? 'grace' : 'task';
  }

  /** The pending or finished creation, or undefined while the task is not needed yet. */
  get creation(): Promise<TaskRecord> | undefined {
    return this.#creating;
  }

  /** Creates the task once and resolves with it; rejects after {@link forbidCreation} when it did not exist yet. */
  create(): Promise<TaskRecord> {
    if (this.#creating === undefined) {
      if (this.#forbidden || this.#create === undefined) return Promise.reject(new Error('The call was abandoned'));
      const create = this.#create;
      this.#create = undefined;
      this.#onFirstUse?.();
      this.#creating = create();
    }
    return this.#creating;
  }

  /** Forbids creating the task from now on. */
  forbidCreation(): void {
    this.#forbidden = true;
    this.#create = undefined;
  }

  /**
   * Waits up to `graceMs` for the tool's outcome; undefined when the time ran out, the tool used its task or the
   * call was aborted (the caller gave up or the server is closing).
   */
  async outcomeWithinGrace(outcome: Promise<ToolOutcome>, graceMs: number): Promise<ToolOutcome | undefined> {
    const { signal } = this.#options;
    if (signal.aborted || this.#creating !== undefined) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: () => void = () => undefined;
    const elapsed = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, graceMs, undefined);
      onAbort = () => resolve(undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      // The first question or status update ends the wait too.
      this.#onFirstUse = () => resolve(undefined);
    });
    try {
      return await Promise.race([outcome, elapsed]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      this.#onFirstUse = undefined;
    }
  }

  async setStatus(message: string): Promise<void> {
    const record = await this.create();
    await this.#options.ops.setStatusMessage(this.#options.owner, record.taskId, message);
  }

  async ask(request: InputRequest): Promise<InputResponse> {
    const ordinal = this.#asked;
    this.#asked += 1;
    const record = await this.create();
    const { maxInputRequests } = this.#options;
    if (this.#outstanding >= maxInputRequests) {
      throw new Error(`Too many outstanding input requests (limit ${maxInputRequests})`);
    }
    this.#outstanding += 1;
    try {
      const replayed = this.#options.existing?.replayKeys[ordinal];
      return await this.#await(replayed ?? (await this.#issue(record.taskId, request)));
    } finally {
      this.#outstanding -= 1;
    }
  }

  async #issue(taskId: string, request: InputRequest): Promise<string> {
    const issued = await this.#options.ops.requestInput(this.#options.owner, taskId, request);
    if (!issued.ok) throw new Error('The task has ended');
    return issued.key;
  }

  async #await(key: string): Promise<InputResponse> {
    const { ops, owner, signal, taskId } = this.#options;
    try {
      return await ops.waitForInput(owner, taskId, key, signal);
    } catch (error) {
      if (signal.aborted) await ops.withdrawInput(owner, taskId, key).catch(() => undefined);
      throw error;
    }
  }
}
