import type { InputRequest, InputResponse } from '@mcp-tasks/protocol';
import type { TaskRecord, TaskStore } from '@mcp-tasks/task-store';
import type { TaskBridge } from './toolContext.js';
import type { ToolOutcome } from './toolInvocation.js';

/** What a {@link LazyTask} needs from the runtime. */
export interface LazyTaskOptions {
  readonly store: TaskStore;
  readonly owner: string;
  /** Most input requests the task may have outstanding at once. */
  readonly maxInputRequests: number;
  /** Creates the task in the store (called at most once). */
  readonly create: () => Promise<TaskRecord>;
  /** The call's signal: aborting it ends the grace period and withdraws a pending input request. */
  readonly signal: AbortSignal;
}

/**
 * The task of one task-mode call, created on first need: at once, or, within an immediate-result grace period,
 * when the tool first touches it ({@link requested} then resolves). Once {@link refuse}d (the call ended before
 * its answer was decided) a task that does not exist yet is never created, so a tool ignoring its signal cannot
 * leave an orphan behind.
 */
export class LazyTask {
  readonly #options: LazyTaskOptions;
  #creating: Promise<TaskRecord> | undefined;
  #record: TaskRecord | undefined;
  #refused = false;
  #outstanding = 0;
  #onRequested: () => void = () => undefined;
  /** Resolves when the task is first needed. */
  readonly requested = new Promise<undefined>((resolve) => {
    this.#onRequested = () => resolve(undefined);
  });
  /** The tool context's view of the task. */
  readonly bridge: TaskBridge;

  constructor(options: LazyTaskOptions) {
    this.#options = options;
    const self = this;
    this.bridge = {
      get taskId() {
        return self.#record?.taskId ?? '';
      },
      setStatus: async (message) => {
        const record = await this.ensure();
        await options.store.setStatusMessage(options.owner, record.taskId, message);
      },
      requestInput: async (request) => {
        const record = await this.ensure();
        if (this.#outstanding >= options.maxInputRequests) {
          throw new Error(`Too many outstanding input requests (limit ${options.maxInputRequests})`);
        }
        this.#outstanding += 1;
        try {
          return await this.#ask(record.taskId, request);
        } finally {
          this.#outstanding -= 1;
        }
      },
    };
  }

  /** The pending or finished creation, or undefined while the task is not needed yet. */
  get creating(): Promise<TaskRecord> | undefined {
    return this.#creating;
  }

  /** Creates the task once and resolves with it; rejects after {@link refuse} when it did not exist yet. */
  ensure(): Promise<TaskRecord> {
    if (this.#creating === undefined) {
      if (this.#refused) return Promise.reject(new Error('The call was abandoned'));
      this.#onRequested();
      this.#creating = this.#options.create().then((record) => {
        this.#record = record;
        return record;
      });
    }
    return this.#creating;
  }

  /** Forbids creating the task from now on. */
  refuse(): void {
    this.#refused = true;
  }

  /**
   * Waits up to `graceMs` for the tool's outcome; undefined when the time ran out, the tool touched its task or the
   * call was aborted (the caller gave up or the server is closing).
   */
  async raceGrace(outcome: Promise<ToolOutcome>, graceMs: number): Promise<ToolOutcome | undefined> {
    const { signal } = this.#options;
    if (signal.aborted) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: () => void = () => undefined;
    const elapsed = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, graceMs, undefined);
      onAbort = () => resolve(undefined);
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([outcome, this.requested, elapsed]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  async #ask(taskId: string, request: InputRequest): Promise<InputResponse> {
    const { store, owner, signal } = this.#options;
    // The tool context builds only the three input-request methods; their params are the tool's own business.
    const issued = await store.requestInput(owner, taskId, request);
    if (!issued.ok) throw new Error('The task has ended');
    try {
      return await store.waitForInput(owner, taskId, issued.key, signal);
    } catch (error) {
      if (signal.aborted) await store.withdrawInput(owner, taskId, issued.key).catch(() => undefined);
      throw error;
    }
  }
}
