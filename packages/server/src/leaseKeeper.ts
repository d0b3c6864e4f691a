import { ErrorCode } from '@mcp-tasks/protocol';
import { isTerminalStatus, type TaskOperations, type TaskRecord } from '@mcp-tasks/task-store';
import { fail, heldLease, keepFinished } from '@mcp-tasks/task-store/transitions';
import type { RunningTool } from './runningTools.js';
import { TaskAbortError } from './taskAbort.js';
import type { ToolSupervisor } from './toolSupervisor.js';

/** What the lease keeper needs. */
export interface LeaseKeeperOptions {
  readonly ops: TaskOperations;
  readonly supervisor: ToolSupervisor;
  readonly workerId: string;
  readonly leaseMs: number;
  /** How long a task failed for a lost worker stays at most; null keeps it until its TTL. */
  readonly keepFinishedMs: number | null;
  /** Restarts the task's tool here when it is registered `resumable` (the record holds our lease); false otherwise. */
  readonly resume: (record: TaskRecord) => boolean;
  readonly report: (error: unknown) => void;
}

/** Most tasks one sweep resolves or expires; the rest wait for the next tick. */
const BATCH = 100;
/** Lease renewals in flight at once. */
const RENEW_PARALLEL = 16;

/**
 * Keeps this instance's leases and watches everyone else's. Every third of the lease period it renews the lease
 * of each tool it runs (a tool whose lease it cannot renew past its end, or that another instance took over, is
 * aborted with `lease_lost`), then resolves tasks whose lease lapsed, whichever instance held it: a `resumable`
 * tool starts again here with the same arguments and answers, any other task fails with `-32603` naming the lost
 * worker. It also expires due tasks (`expireDue`) for stores that do not expire on their own.
 */
export class LeaseKeeper {
  readonly #options: LeaseKeeperOptions;
  #timer: ReturnType<typeof setInterval> | undefined;
  #ticking: Promise<void> | undefined;

  constructor(options: LeaseKeeperOptions) {
    this.#options = options;
  }

  /** Starts the periodic tick (unref'd: it never keeps a process alive). Idempotent. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => void this.tick(), Math.max(1, Math.floor(this.#options.leaseMs / 3)));
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** Stops the tick and waits for one in progress. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#ticking;
  }

  /** One round of renewal and sweeping; overlapping calls share the round in progress. */
  tick(): Promise<void> {
    this.#ticking ??= this.#round().finally(() => {
      this.#ticking = undefined;
    });
    return this.#ticking;
  }

  async #round(): Promise<void> {
    try {
      await this.#renew();
      const { store } = this.#options.ops;
      for (const record of await store.lapsedLeases(Date.now(), BATCH)) await this.#recover(record);
      await store.expireDue(Date.now(), BATCH);
    } catch (error) {
      this.#options.report(error);
    }
  }

  /** Renews the leases of every running call, {@link RENEW_PARALLEL} at a time (one by one took seconds for hundreds). */
  async #renew(): Promise<void> {
    const calls = this.#options.supervisor.runningCalls();
    for (let start = 0; start < calls.length; start += RENEW_PARALLEL) {
      await Promise.all(calls.slice(start, start + RENEW_PARALLEL).map((call) => this.#renewOne(call)));
    }
  }

  async #renewOne(call: RunningTool): Promise<void> {
    const { ops, workerId, leaseMs } = this.#options;
    const now = Date.now();
    const swap = await ops.renewLease(call.owner, call.taskId, workerId, now + leaseMs).catch((error: unknown) => {
      this.#options.report(error);
      return undefined;
    });
    if (swap?.ok) call.leaseUntil = now + leaseMs;
    else if (
      swap === undefined ? now >= call.leaseUntil : swap.current !== undefined && !isTerminalStatus(swap.current.status)
    ) {
      // Unreachable store past the lease's end, or another worker holds the lease now.
      call.abort(new TaskAbortError('lease_lost', `Worker ${workerId} lost the lease of the task`));
    }
  }

  async #recover(lapsed: TaskRecord): Promise<void> {
    const { ops, workerId, leaseMs } = this.#options;
    if (lapsed.lease?.worker === workerId && this.#options.supervisor.isRunning(lapsed.taskId)) return;
    const taken = await ops.takeOverLease(lapsed.owner, lapsed.taskId, workerId, Date.now() + leaseMs);
    if (!taken.ok) return;
    if (this.#options.resume(taken.record)) return;
    await this.#failLost(taken.record, lapsed.lease?.worker ?? 'unknown');
  }

  /** Fails a task whose worker is lost, unless another writer got there first (then the next sweep decides). */
  async #failLost(current: TaskRecord, worker: string): Promise<void> {
    const message = `Worker ${worker} stopped renewing its lease; the task was lost`;
    const failed = fail(current, { code: ErrorCode.InternalError, message }, new Date().toISOString(), message);
    const next = failed && keepFinished(failed, this.#options.keepFinishedMs, Date.now());
    if (next === undefined || heldLease(current, Date.now())?.worker !== this.#options.workerId) return;
    await this.#options.ops.store.swap(current.owner, current.taskId, current.version, next);
  }
}
