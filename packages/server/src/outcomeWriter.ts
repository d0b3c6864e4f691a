import type { TaskOperations } from '@mcp-tasks/task-store';
import type { RunningTool } from './runningTools.js';
import { isTaskAbort } from './taskAbort.js';
import { isExpectedStoreError, writeToolOutcome } from './taskOutcomes.js';
import type { ToolOutcome } from './toolInvocation.js';
import { retryTransient } from './transientRetry.js';

/** What an {@link OutcomeWriter} writes with. */
export interface OutcomeWriterOptions {
  readonly ops: TaskOperations;
  /** This instance's worker id: the lease a handed-over task releases. */
  readonly workerId: string;
  /** Receives a write's unexpected failure (a closed store or a gone task is expected). */
  readonly report: (error: unknown) => void;
}

/**
 * Writes the outcomes of a supervisor's tools to their tasks, retrying while the store is only unavailable; on a
 * shutdown that hands tasks over, releases the lease of a resumable tool the shutdown stopped instead.
 */
export class OutcomeWriter {
  readonly #options: OutcomeWriterOptions;
  /** Aborted once `close` stops waiting: outcome writes still retrying then give up (and clear their timers). */
  readonly #stopRetries = new AbortController();
  /** Set by `close`: resumable tools stopped by the shutdown are released to other instances, not failed. */
  #handOver = false;

  constructor(options: OutcomeWriterOptions) {
    this.#options = options;
  }

  /**
   * Called when the server closes: with `handOver` (the store outlives this instance), a resumable tool stopped by
   * the shutdown has its lease released rather than its task failed, so another instance resumes it.
   */
  beginShutdown(handOver: boolean): void {
    this.#handOver = handOver;
  }

  /** Makes writes still retrying give up (the server stopped waiting for its tools). */
  stopRetries(): void {
    this.#stopRetries.abort();
  }

  /**
   * Writes the outcome; while the store is only unavailable (a database restarting), retries with backoff for as
   * long as this instance's lease holds and the server has not stopped waiting for its tools.
   */
  async write(call: RunningTool, outcome: ToolOutcome): Promise<void> {
    const reason: unknown = call.reason;
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
}
