import { isTerminalStatus, type TaskEvent, type TaskListener, type TaskOperations } from '@mcp-tasks/task-store';
import { CallAbort } from './callAbort.js';
import type { DurableCall } from './durableCall.js';
import { TaskAbortError } from './taskAbort.js';
import type { RegisteredTool } from './toolRegistry.js';

/**
 * A tool this instance runs, from its start until its outcome is written; it is the call's abort too (one object
 * per waiting task, not two): its `AbortSignal` is made only if the tool reads `ctx.signal`.
 */
export class RunningTool extends CallAbort {
  readonly owner: string;
  readonly taskId: string;
  readonly tool: RegisteredTool;
  /** Until when this instance's lease is known to hold (epoch ms). */
  leaseUntil = 0;
  /** `starting` until its task exists, `running` (it can be cancelled, its lease renewed) until `released`. */
  state: 'starting' | 'running' | 'released' = 'starting';
  /**
   * Set once the tool's run settled (its outcome is being written): task events no longer abort it. Its own
   * outcome's write is such an event, and would otherwise reach the tool as a `lease_lost` "ended elsewhere".
   */
  settled = false;
  /** The durable side of the call (steps, parking, hand-back); undefined for a task whose work is not durable. */
  durable: DurableCall | undefined = undefined;

  constructor(owner: string, taskId: string, tool: RegisteredTool) {
    super();
    this.owner = owner;
    this.taskId = taskId;
    this.tool = tool;
  }
}

/**
 * The reason a released call's signal aborts with, so work a tool left running stops. One instance for every call:
 * an `Error` built per task cost a stack trace each.
 */
const TASK_FINISHED = new Error('Task finished');

/**
 * The calls a supervisor runs, from their start until they are released, and the task events that abort them: a
 * cancel, expiry or lease change of a call's task, written by this or another instance, reaches its tool as a typed
 * abort reason.
 */
export class RunningTools {
  readonly #ops: TaskOperations;
  readonly #workerId: string;
  /** Calls started whose task is not listened to yet (the grace period, a creation under way). */
  readonly #starting = new Set<RunningTool>();
  /**
   * Calls from the time their task is listened to (before it is created, so no event is missed) until released,
   * by task id: one map entry per waiting task serves event routing, cancel, lease renewal and shutdown (three
   * collections cost ~100 B per task more). Served by one listener of every task's events: a listener per task cost
   * a closure, a router entry and their scopes (~250 B). When a second call of a task is listened to (rare: a task
   * resumed while still running here), it takes the entry and the first gets a listener of its own.
   */
  readonly #byTask = new Map<string, RunningTool>();
  /** The listeners of calls displaced from {@link #byTask} by a later call of their task. */
  readonly #ownListeners = new Map<RunningTool, () => void>();
  readonly #onTaskEvent: TaskListener = (event) => {
    const call = this.#byTask.get(event.record.taskId);
    if (call !== undefined && call.owner === event.record.owner) this.#onEvent(call, event);
  };
  /** Set while the supervisor waits for the last call to be released. */
  #onDrained: (() => void) | undefined;

  /** `workerId` is this instance's: a lease taken by any other worker aborts the call. */
  constructor(ops: TaskOperations, workerId: string) {
    this.#ops = ops;
    this.#workerId = workerId;
    // One listener for the supervisor's life (the operations drop it when closed); events flow once they are ready.
    ops.listenAll(this.#onTaskEvent);
  }

  /** Calls not released yet: each is in exactly one of the three collections. */
  get #count(): number {
    return this.#starting.size + this.#byTask.size + this.#ownListeners.size;
  }

  /** Every call not released yet (a snapshot). */
  calls(): RunningTool[] {
    return [...this.#starting, ...this.#byTask.values(), ...this.#ownListeners.keys()];
  }

  /** The calls whose task exists (a snapshot): they can be cancelled and their leases renewed. */
  runningCalls(): RunningTool[] {
    const running: RunningTool[] = [];
    for (const call of this.#byTask.values()) if (call.state === 'running') running.push(call);
    for (const call of this.#ownListeners.keys()) if (call.state === 'running') running.push(call);
    return running;
  }

  /** The latest running call of `taskId`, if any. */
  runningCall(taskId: string): RunningTool | undefined {
    const call = this.#byTask.get(taskId);
    return call?.state === 'running' ? call : undefined;
  }

  /** Starts tracking a call of `tool` for the task `taskId` (which need not exist yet). */
  track(owner: string, taskId: string, tool: RegisteredTool): RunningTool {
    const call = new RunningTool(owner, taskId, tool);
    this.#starting.add(call);
    return call;
  }

  /** Records that the task of `call` exists (it can now be cancelled and its lease renewed); after {@link listen}. */
  markRunning(call: RunningTool): void {
    if (call.state === 'starting') call.state = 'running';
  }

  /** Forgets `call` once its tool settled and its outcome is written (or dropped). */
  release(call: RunningTool): void {
    if (call.state === 'released') return;
    call.state = 'released';
    this.#starting.delete(call);
    this.unlisten(call);
    call.abort(TASK_FINISHED);
    if (this.#count === 0) this.#onDrained?.();
  }

  /** Resolves once every call is released (at once when there is none). Only one waiter at a time. */
  drained(): Promise<void> {
    return this.#count === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          this.#onDrained = resolve;
        });
  }

  /**
   * Aborts `call` on a cancel, expiry or lease change of its task, from this or another instance, until
   * {@link unlisten} (or {@link release}). Events flow once the operations are ready (`ops.ready()`).
   */
  listen(call: RunningTool): void {
    this.#starting.delete(call);
    const previous = this.#byTask.get(call.taskId);
    if (previous !== undefined && previous !== call) {
      this.#ownListeners.set(
        previous,
        this.#ops.listen(previous.owner, previous.taskId, (event) => this.#onEvent(previous, event)),
      );
    }
    this.#byTask.set(call.taskId, call);
  }

  /** Undoes {@link listen}; `call` is tracked on until released. A no-op when it is not listened to. */
  unlisten(call: RunningTool): void {
    if (this.#byTask.get(call.taskId) === call) this.#byTask.delete(call.taskId);
    const own = this.#ownListeners.get(call);
    if (own !== undefined) {
      this.#ownListeners.delete(call);
      own();
    }
    if (call.state !== 'released') this.#starting.add(call);
  }

  /** A change to a running task, from this or another instance: cancel, expiry or a lease taken over abort it. */
  #onEvent(call: RunningTool, event: TaskEvent): void {
    if (call.settled) return;
    if (event.type === 'expired') {
      call.abort(new TaskAbortError('expired', 'Task expired'));
    } else if (event.record.status === 'cancelled') {
      call.abort(new TaskAbortError('cancelled', 'Task cancelled'));
    } else if (isTerminalStatus(event.record.status)) {
      call.abort(new TaskAbortError('lease_lost', `Task ended elsewhere: ${event.record.status}`));
    } else if (event.record.lease !== undefined && event.record.lease.worker !== this.#workerId) {
      call.abort(new TaskAbortError('lease_lost', `Worker ${event.record.lease.worker} took the task over`));
    }
  }
}
