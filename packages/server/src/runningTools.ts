import { isTerminalStatus, type TaskEvent, type TaskListener, type TaskOperations } from '@mcp-tasks/task-store';
import { CallAbort } from './callAbort.js';
import { TaskAbortError } from './taskAbort.js';
import type { RegisteredTool } from './toolRegistry.js';

/** A tool this instance runs, from its start until its outcome is written. */
export interface RunningTool {
  readonly owner: string;
  readonly taskId: string;
  readonly tool: RegisteredTool;
  /** Aborts the call's tool; its `AbortSignal` is made only if the tool reads `ctx.signal`. */
  readonly abort: CallAbort;
  /** Until when this instance's lease is known to hold (epoch ms). */
  leaseUntil: number;
  /** Stops listening to the task's events; called when the call is released. */
  unlisten: () => void;
}

const noop = () => undefined;

/**
 * The calls a supervisor runs, from their start until they are released, and the task events that abort them: a
 * cancel, expiry or lease change of a call's task, written by this or another instance, reaches its tool as a typed
 * abort reason.
 */
export class RunningTools {
  readonly #ops: TaskOperations;
  readonly #workerId: string;
  /** Every call from start until its tool settled and its outcome is written. */
  readonly #calls = new Set<RunningTool>();
  /** Calls whose task exists, by task id (cancel, lease renewal). */
  readonly #running = new Map<string, RunningTool>();
  /**
   * Calls by task id, served by one listener of every task's events: a listener per task cost a closure, a router
   * entry and their scopes (~250 B) for every waiting task. A second call of a task already listened to here gets a
   * listener of its own.
   */
  readonly #listened = new Map<string, RunningTool>();
  readonly #onTaskEvent: TaskListener = (event) => {
    const call = this.#listened.get(event.record.taskId);
    if (call !== undefined && call.owner === event.record.owner) this.#onEvent(call, event);
  };
  /** Whether {@link #onTaskEvent} listens; from the first {@link listen} on, as long as the operations are open. */
  #listeningAll = false;
  /** Set while the supervisor waits for the last call to be released. */
  #onDrained: (() => void) | undefined;

  /** `workerId` is this instance's: a lease taken by any other worker aborts the call. */
  constructor(ops: TaskOperations, workerId: string) {
    this.#ops = ops;
    this.#workerId = workerId;
  }

  /** Every call not released yet. */
  get calls(): ReadonlySet<RunningTool> {
    return this.#calls;
  }

  /** Calls whose task exists, by task id. */
  get running(): ReadonlyMap<string, RunningTool> {
    return this.#running;
  }

  /** Starts tracking a call of `tool` for the task `taskId` (which need not exist yet). */
  track(owner: string, taskId: string, tool: RegisteredTool): RunningTool {
    const call: RunningTool = { owner, taskId, tool, abort: new CallAbort(), leaseUntil: 0, unlisten: noop };
    this.#calls.add(call);
    return call;
  }

  /** Records that the task of `call` exists (it can now be cancelled and its lease renewed). */
  markRunning(call: RunningTool): void {
    this.#running.set(call.taskId, call);
  }

  /** Forgets `call` once its tool settled and its outcome is written (or dropped). */
  release(call: RunningTool): void {
    this.#calls.delete(call);
    if (this.#running.get(call.taskId) === call) this.#running.delete(call.taskId);
    this.unlisten(call, call.unlisten);
    call.abort.abort(new Error('Task finished'));
    if (this.#calls.size === 0) this.#onDrained?.();
  }

  /** Resolves once every call is released (at once when there is none). Only one waiter at a time. */
  drained(): Promise<void> {
    return this.#calls.size === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          this.#onDrained = resolve;
        });
  }

  /**
   * Aborts `call` on a cancel, expiry or lease change of its task, from this or another instance. Events flow once
   * the operations are ready (`ops.ready()`); returns what {@link unlisten} needs.
   */
  listen(call: RunningTool): () => void {
    if (this.#listened.has(call.taskId)) {
      return this.#ops.listen(call.owner, call.taskId, (event) => this.#onEvent(call, event));
    }
    this.#listened.set(call.taskId, call);
    if (!this.#listeningAll) {
      this.#ops.listenAll(this.#onTaskEvent);
      this.#listeningAll = true;
    }
    return noop;
  }

  /** Undoes {@link listen}: `unlisten` is what it returned for `call`. */
  unlisten(call: RunningTool, unlisten: () => void): void {
    unlisten();
    if (this.#listened.get(call.taskId) === call) this.#listened.delete(call.taskId);
  }

  /** A change to a running task, from this or another instance: cancel, expiry or a lease taken over abort it. */
  #onEvent(call: RunningTool, event: TaskEvent): void {
    if (event.type === 'expired') {
      call.abort.abort(new TaskAbortError('expired', 'Task expired'));
    } else if (event.record.status === 'cancelled') {
      call.abort.abort(new TaskAbortError('cancelled', 'Task cancelled'));
    } else if (isTerminalStatus(event.record.status)) {
      call.abort.abort(new TaskAbortError('lease_lost', `Task ended elsewhere: ${event.record.status}`));
    } else if (event.record.lease !== undefined && event.record.lease.worker !== this.#workerId) {
      call.abort.abort(new TaskAbortError('lease_lost', `Worker ${event.record.lease.worker} took the task over`));
    }
  }
}
