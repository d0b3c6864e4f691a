import type { TaskRecord } from '@mcp-tasks/task-store';

/**
 * The seam through which task work is run: the server hands an executor the {@link ExecutionHost}, and the executor
 * decides when and where durable tasks run. The built-in {@link ClaimingWorker} claims runnable tasks from the store
 * in a loop; an external engine (Temporal, Inngest, BullMQ, a cloud queue) can schedule the same work instead, by
 * turning each {@link ExecutionHost.onRunnable} hint into a job of its own and calling {@link ExecutionHost.claim}
 * and {@link ExecutionHost.run} from the job. The task store stays the source of truth: a claim is exclusive while
 * its lease holds, so an engine that runs a job twice, or late, runs no task twice.
 */
export interface TaskExecutor {
  /** Starts running work through `host`. Called once, when the first durable tool is registered. */
  start(host: ExecutionHost): void;
  /**
   * Stops claiming new work; resolves once no claim is under way. Runs already started are the server's to drain
   * (`McpServer.close({ graceMs })`), not the executor's.
   */
  stop(): Promise<void>;
}

/** How a run of a claimed task ended ({@link ExecutionHost.run}). */
export type RunEnd =
  /** The tool finished: the task is completed or failed (or was cancelled meanwhile). */
  | 'finished'
  /** The task waits for input with no worker; its answer makes it runnable again. */
  | 'parked'
  /** The task was queued for another run (a drain, or a retry after its backoff). */
  | 'handed_back'
  /** This worker lost the task (its lease lapsed or another worker took it), or the tool is not registered here. */
  | 'lost';

/** What an executor runs work with; implemented by the server. */
export interface ExecutionHost {
  /** This instance's worker id, written into the leases of the tasks it claims. */
  readonly workerId: string;
  /**
   * Claims up to `limit` runnable durable tasks (queued and due, or of a lost worker), oldest first, each leased to
   * this worker for `leaseMs`; the lease is renewed while the task runs here. Concurrent claims from any number of
   * instances never take the same task twice.
   */
  claim(limit: number): Promise<readonly TaskRecord[]>;
  /**
   * Runs the tool of a task this worker claimed, replaying its completed steps and answered questions, until it
   * finishes, parks, is handed back or is lost. Never rejects; a task whose tool is not registered here is failed
   * with `-32603` naming the tool (resolves `lost`).
   */
  run(task: TaskRecord): Promise<RunEnd>;
  /**
   * Calls `listener` when a durable task became runnable through a write this instance saw (created queued, woken
   * by its last answer, handed back): a hint to claim soon. Tasks of a lost worker become runnable without any
   * write, when the lease lapses: an executor must also claim on a timer. Returns the unsubscribe function.
   */
  onRunnable(listener: () => void): () => void;
}
