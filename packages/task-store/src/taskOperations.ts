import { applyBySwap } from './applyBySwap.js';
import { createIsoFormatter } from './isoClock.js';
import { answerDecision, endDecision, toTerminalResult } from './operationOutcomes.js';
import { type Decision, waitOnRecord } from './recordWait.js';
import { TaskEventRouter } from './taskEventRouter.js';
import type { TaskOperationsOptions } from './taskOperationsOptions.js';
import {
  type CreateTaskOptions,
  type InputRequest,
  type InputResponse,
  type InputResponses,
  isTerminalStatus,
  type JsonObject,
  type ListTasksOptions,
  type RequestInputResult,
  type ResolveInputsResult,
  type SwapResult,
  type TaskError,
  type TaskListener,
  type TaskOwner,
  type TaskPage,
  type TaskRecord,
  type TaskRecordPatch,
  type TaskStore,
  type TerminalResult,
  type Unsubscribe,
} from './taskStore.js';
import { TaskStoreError } from './taskStoreError.js';
import { timeTaskStore } from './timedTaskStore.js';
import * as transitions from './transitions.js';
import { observeWrites } from './writeObserver.js';

/** A pure transition of `transitions`: the next record, or undefined when its rule refuses. */
type Transition = (current: TaskRecord) => TaskRecord | undefined;

/**
 * The task state machine applied to a {@link TaskStore}: every named operation reads the record, computes the next
 * one with a pure function of `transitions` and writes it with `swap`, re-reading and retrying when another writer
 * got there first. So the rules (key uniqueness, first terminal writer wins, answers only for outstanding keys)
 * hold the same on every store, across processes. Waits and per-task listeners run on one `watch` of the store.
 */
export class TaskOperations {
  /**
   * The store these operations read and write; owned by the caller, who closes it after {@link TaskOperations.close}.
   */
  readonly store: TaskStore;
  readonly #now: () => number;
  readonly #keepFinishedMs: number | null;
  readonly #iso = createIsoFormatter();
  readonly #router: TaskEventRouter;
  readonly #pendingWaits = new Set<(error: Error) => void>();
  #closed = false;

  /** Wraps `store` (timed with `onStoreCall`); its change feed is watched once from the first wait or listener on. */
  constructor(store: TaskStore, options: TaskOperationsOptions = {}) {
    const report = options.onListenerError ?? ((error) => console.error('TaskOperations listener:', error));
    // The hooks wrap the store: with neither, the operations run on the store itself at no extra cost.
    const timed = options.onStoreCall === undefined ? store : timeTaskStore(store, options.onStoreCall, report);
    this.store = options.onWrite === undefined ? timed : observeWrites(timed, options.onWrite, report);
    this.#now = options.now ?? Date.now;
    this.#keepFinishedMs = options.keepFinishedMs ?? null;
    this.#router = new TaskEventRouter(this.store, report);
  }

  /** Creates a task (see `TaskStore.create`). */
  create(owner: TaskOwner, options: CreateTaskOptions): Promise<TaskRecord> {
    return this.store.create(owner, options);
  }

  /** The current record, or undefined for an unknown, expired or another owner's task. */
  get(owner: TaskOwner, taskId: string): Promise<TaskRecord | undefined> {
    return this.store.get(owner, taskId);
  }

  /** One page of `owner`'s tasks, oldest first (see `TaskStore.list`). */
  list(owner: TaskOwner, options: ListTasksOptions): Promise<TaskPage> {
    return this.store.list(owner, options);
  }

  /**
   * Writes `patch` if the record's version is still `expectedVersion` and it is not terminal. `patch` may be a
   * function of the current record. A stale version is `{ ok: false, current }`.
   */
  compareAndSwap(
    owner: TaskOwner,
    taskId: string,
    expectedVersion: number,
    patch: TaskRecordPatch | ((current: TaskRecord) => TaskRecordPatch),
  ): Promise<SwapResult> {
    return this.#apply(owner, taskId, (current) => {
      if (current.version !== expectedVersion || isTerminalStatus(current.status)) return undefined;
      return transitions.patchTask(current, typeof patch === 'function' ? patch(current) : patch, this.#stamp());
    });
  }

  /** Sets `statusMessage` on a live task, whatever its version (last writer wins). */
  setStatusMessage(owner: TaskOwner, taskId: string, statusMessage: string): Promise<SwapResult> {
    return this.#apply(owner, taskId, (current) => transitions.setStatusMessage(current, statusMessage, this.#stamp()));
  }

  /** Issues a fresh key (unique for the task's lifetime), adds `request` under it, moves to `input_required`. */
  async requestInput(owner: TaskOwner, taskId: string, request: InputRequest): Promise<RequestInputResult> {
    let key = '';
    const outcome = await this.#apply(owner, taskId, (current) => {
      const asked = transitions.requestInput(current, request, this.#stamp());
      if (asked !== undefined) key = asked.key;
      return asked?.record;
    });
    return outcome.ok ? { ok: true, key, record: outcome.record } : outcome;
  }

  /**
   * Delivers answers for currently outstanding keys only (others are ignored), all in one write or none. A partial
   * set leaves the rest outstanding; with none left the task returns to `working`. A terminal task accepts nothing.
   */
  async resolveInputs(owner: TaskOwner, taskId: string, responses: InputResponses): Promise<ResolveInputsResult> {
    let accepted: readonly string[] = [];
    const outcome = await this.#apply(owner, taskId, (current) => {
      const resolved = transitions.resolveInputs(current, responses, this.#stamp());
      accepted = resolved.accepted;
      return resolved.record;
    });
    if (!outcome.ok && outcome.current === undefined) return { found: false };
    return { found: true, accepted, record: outcome.ok ? outcome.record : (outcome.current as TaskRecord) };
  }

  /** Withdraws an outstanding key; later answers to it are ignored. `ok: false` when it is not outstanding. */
  withdrawInput(owner: TaskOwner, taskId: string, key: string): Promise<SwapResult> {
    return this.#apply(owner, taskId, (current) => transitions.withdrawInput(current, key, this.#stamp()));
  }

  /** Ends the task `completed`. First terminal writer wins; later calls get `won: false` and the record that stands. */
  complete(owner: TaskOwner, taskId: string, result: JsonObject, statusMessage?: string): Promise<TerminalResult> {
    return this.#finish(owner, taskId, (current) =>
      transitions.complete(current, result, this.#stamp(), statusMessage),
    );
  }

  /** Ends the task `failed` with a JSON-RPC error. First terminal writer wins. */
  fail(owner: TaskOwner, taskId: string, error: TaskError, statusMessage?: string): Promise<TerminalResult> {
    return this.#finish(owner, taskId, (current) => transitions.fail(current, error, this.#stamp(), statusMessage));
  }

  /** Ends the task `cancelled`; `reason` becomes the `statusMessage`. First terminal writer wins. */
  cancel(owner: TaskOwner, taskId: string, reason?: string): Promise<TerminalResult> {
    return this.#finish(owner, taskId, (current) => transitions.cancel(current, this.#stamp(), reason));
  }

  /** Extends `worker`'s lease to `until`; `ok: false` when the task ended or another worker holds the lease. */
  renewLease(owner: TaskOwner, taskId: string, worker: string, until: number): Promise<SwapResult> {
    return this.#apply(owner, taskId, (current) => transitions.renewLease(current, worker, until));
  }

  /** Takes a lapsed (or absent) lease for `worker`; `ok: false` when the task ended or the lease is still held. */
  takeOverLease(owner: TaskOwner, taskId: string, worker: string, until: number): Promise<SwapResult> {
    return this.#apply(owner, taskId, (current) => transitions.takeOverLease(current, worker, until, this.#now()));
  }

  /** Lets go of `worker`'s lease at once, so another instance's lease sweep resolves the task. */
  releaseLease(owner: TaskOwner, taskId: string, worker: string): Promise<SwapResult> {
    return this.#apply(owner, taskId, (current) => transitions.releaseLease(current, worker, this.#now()));
  }

  /** Applies a pure transition (such as `parkTask`) with the read-transition-write and retry of the named ones. */
  apply(owner: TaskOwner, taskId: string, transition: Transition): Promise<SwapResult> {
    return this.#apply(owner, taskId, transition);
  }

  /** Resolves once the store's change feed is watched (the first call starts it). */
  ready(): Promise<void> {
    this.#assertOpen();
    return this.#router.start();
  }

  /**
   * Calls `listener` with every later event of `owner`'s task, after {@link ready} resolved. Synchronous and local
   * (no store call), so it can be set up before the task exists. Events of another owner's task never arrive.
   */
  listen(owner: TaskOwner, taskId: string, listener: TaskListener): Unsubscribe {
    return this.#router.listen(owner, taskId, listener);
  }

  /**
   * {@link listen} to each of `taskIds` (tasks that need not exist yet) with one listener, for a consumer watching
   * many tasks at once (a listen stream): one entry for all of them, not a closure per task. The returned function
   * stops it for every task. Duplicate ids are the caller's to remove (a duplicate is delivered twice).
   */
  listenMany(owner: TaskOwner, taskIds: readonly string[], listener: TaskListener): Unsubscribe {
    return this.#router.listenMany(owner, taskIds, listener);
  }

  /**
   * Calls `listener` with every later event of every task, whatever its owner (it must check `event.record.owner`),
   * after {@link ready} resolved, before each task's listeners: one listener for a consumer indexing many tasks
   * (running tools, listen streams), not a closure and map entry each. Its exceptions go to `onListenerError`.
   */
  listenAll(listener: TaskListener): Unsubscribe {
    return this.#router.listenAll(listener);
  }

  /**
   * Subscribes to changes of one of `owner`'s tasks; resolves once events will be delivered. Read the current
   * record after subscribing and skip events whose version is not newer. After `expired` no more events come.
   */
  async subscribe(owner: TaskOwner, taskId: string, listener: TaskListener): Promise<Unsubscribe> {
    await this.ready();
    return this.listen(owner, taskId, listener);
  }

  /**
   * Resolves with the answer to input key `key` once it is in the record (also when it arrived before this call;
   * answers stay readable until the task ends). Rejects with `TaskStoreError` `task_ended` when the task ends
   * first, `task_not_found` when it is unknown or expires, `unknown_input_key` when the key is neither outstanding
   * nor answered (never issued, or withdrawn), `closed` on close, or with `signal.reason` when `signal` aborts.
   * Aborting does not withdraw the key (see {@link withdrawInput}).
   */
  waitForInput(owner: TaskOwner, taskId: string, key: string, signal?: AbortSignal): Promise<InputResponse> {
    return this.#waitFor(owner, taskId, signal, answerDecision(taskId, key));
  }

  /**
   * Resolves when the task ends: with the terminal record, or undefined when it expired or is not found. Rejects
   * with `signal.reason` when `signal` aborts, or `closed` on close.
   */
  waitForEnd(owner: TaskOwner, taskId: string, signal?: AbortSignal): Promise<TaskRecord | undefined> {
    return this.#waitFor(owner, taskId, signal, endDecision);
  }

  /** Rejects pending waits with `closed` and stops watching; does not close the store. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const error = new TaskStoreError('closed', 'The task operations are closed');
    for (const reject of [...this.#pendingWaits]) reject(error);
    await this.#router.stop();
  }

  /** Pending waits and listened tasks (for leak checks). */
  stats(): {
    /** Waits not yet settled. */ readonly pendingWaits: number;
    /** Tasks with at least one listener in this process. */ readonly listenedTasks: number;
  } {
    return { pendingWaits: this.#pendingWaits.size, listenedTasks: this.#router.taskCount };
  }

  #stamp(): string {
    return this.#iso(this.#now());
  }

  #assertOpen(): void {
    if (this.#closed) throw new TaskStoreError('closed', 'The task operations are closed');
  }

  #finish(owner: TaskOwner, taskId: string, step: Transition): Promise<TerminalResult> {
    const kept = (current: TaskRecord) => {
      const ended = step(current);
      return ended === undefined ? undefined : transitions.keepFinished(ended, this.#keepFinishedMs, this.#now());
    };
    return this.#apply(owner, taskId, kept).then(toTerminalResult);
  }

  /**
   * Read, transition, conditional write; on a lost race, transition the record that won and try again. `step`
   * returning undefined (the rule refuses) or the current record itself (nothing to change) ends without a write.
   */
  #apply(owner: TaskOwner, taskId: string, step: Transition): Promise<SwapResult> {
    if (this.#closed) return Promise.reject(new TaskStoreError('closed', 'The task operations are closed'));
    // Not awaited: a store that updates on its side answers in one hop (the hottest path of the in-memory store).
    if (this.store.update !== undefined) return this.store.update(owner, taskId, step);
    return applyBySwap(this.store, owner, taskId, step);
  }

  /**
   * Runs `decide` on the current record and on every newer one until it settles; settling (also through `signal`
   * or {@link close}) removes the listener, the abort handler and the pending entry, so nothing leaks.
   */
  async #waitFor<T>(
    owner: TaskOwner,
    taskId: string,
    signal: AbortSignal | undefined,
    decide: (record: TaskRecord | undefined) => Decision<T>,
  ): Promise<T> {
    signal?.throwIfAborted();
    await this.ready();
    this.#assertOpen();
    return waitOnRecord({
      pending: this.#pendingWaits,
      signal,
      decide,
      listen: (judge) =>
        this.listen(owner, taskId, (event) => judge(event.type === 'expired' ? undefined : event.record)),
      read: () => this.store.get(owner, taskId),
    });
  }
}
