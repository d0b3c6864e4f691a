import {
  createTaskIdGenerator,
  isTaskStoreError,
  TaskOperations,
  type TaskRecord,
  type TaskStore,
} from '@mcp-tasks/task-store';
import type { RequestEnvelope } from './envelope.js';
import { isJsonObject } from './jsonRpc.js';
import { LeaseKeeper } from './leaseKeeper.js';
import { TaskMethods } from './taskMethods.js';
import { SHUTDOWN_ERROR } from './taskOutcomes.js';
import { createToolContext, type InputChannel } from './toolContext.js';
import type { RegisteredTool } from './toolRegistry.js';
import { ToolSupervisor } from './toolSupervisor.js';

/** Task settings of a server. */
export interface TaskRuntimeOptions {
  readonly store: TaskStore;
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  readonly immediateResultMs: number;
  readonly maxInputRequestsPerTask: number;
  readonly leaseMs: number;
  /** How long a finished task stays at most; null keeps it until its TTL. */
  readonly keepFinishedMs: number | null;
  readonly workerId: string;
  /** The registered tools, for resuming a `resumable` tool whose worker was lost. */
  readonly tools: ReadonlyMap<string, RegisteredTool>;
  readonly report: (error: unknown) => void;
}

/**
 * The task side of a server, in three parts: {@link methods} answers `tasks/get|update|cancel`; {@link supervisor}
 * starts, aborts and stops tools (the outcome of each is mapped to a store write by `writeToolOutcome`); the lease
 * keeper renews this instance's leases and resolves tasks of lost workers. All share one `TaskOperations`.
 */
export class TaskRuntime {
  readonly ops: TaskOperations;
  readonly methods: TaskMethods;
  readonly supervisor: ToolSupervisor;
  readonly #keeper: LeaseKeeper;
  readonly #options: TaskRuntimeOptions;

  constructor(options: TaskRuntimeOptions) {
    this.#options = options;
    this.ops = new TaskOperations(options.store, {
      onListenerError: options.report,
      keepFinishedMs: options.keepFinishedMs,
    });
    this.supervisor = new ToolSupervisor({ ...options, ops: this.ops, newTaskId: createTaskIdGenerator() });
    this.methods = new TaskMethods(this.ops, (taskId, reason) => this.supervisor.abort(taskId, reason));
    this.#keeper = new LeaseKeeper({
      ops: this.ops,
      supervisor: this.supervisor,
      workerId: options.workerId,
      leaseMs: options.leaseMs,
      keepFinishedMs: options.keepFinishedMs,
      resume: (record) => this.#resume(record),
      report: options.report,
    });
    this.#keeper.start();
  }

  /**
   * Aborts every tool (`shutdown`), waits at most `graceMs` for them, then records the tasks they leave unfinished
   * (stopped by the abort, or still running): failed, or, when `release` (the store outlives this instance) and the
   * tool is resumable, handed to whichever instance sweeps leases next. Stops the lease keeper and the change feed.
   */
  async close(graceMs: number, release: boolean): Promise<void> {
    await this.#keeper.stop();
    const unfinished = await this.supervisor.close(graceMs, release);
    for (const call of unfinished) {
      const write =
        release && call.tool.definition.resumable === true
          ? this.ops.releaseLease(call.owner, call.taskId, this.#options.workerId)
          : this.ops.fail(call.owner, call.taskId, SHUTDOWN_ERROR, 'The server shut down before the tool finished');
      await write.catch((error: unknown) => {
        if (!isTaskStoreError(error)) this.#options.report(error);
      });
    }
    await this.ops.close();
  }

  /** Runs a resumable tool again for `record` (which holds this instance's lease); false when not resumable here. */
  #resume(record: TaskRecord): boolean {
    const meta = record.requestMeta;
    const tool = typeof meta?.name === 'string' ? this.#options.tools.get(meta.name) : undefined;
    if (tool === undefined || tool.definition.resumable !== true || meta === undefined) return false;
    // A task created by an era adapter (it stores its `wire`, e.g. 2025-11-25) asks its questions as requests in the
    // client's session, which a resumed run cannot reach; only tasks of the core's own wire are resumed.
    if (meta.wire !== undefined) return false;
    const envelope: RequestEnvelope = {
      protocolVersion: typeof meta.protocolVersion === 'string' ? meta.protocolVersion : '',
      clientCapabilities: isJsonObject(meta.clientCapabilities) ? meta.clientCapabilities : {},
      meta: {},
    };
    const principal = typeof meta.principal === 'string' ? meta.principal : undefined;
    this.supervisor.resume(record, tool, (channel: InputChannel, abort, streaming) =>
      createToolContext(
        {
          principal,
          envelope,
          abort,
          mrtr: { inputResponses: {}, requestState: undefined },
          notify: () => undefined,
          streaming,
        },
        channel,
      ),
    );
    return true;
  }
}
