import { ErrorCode } from '@mcp-tasks/protocol';
import {
  createTaskIdGenerator,
  isDurableTaskStore,
  isTaskStoreError,
  TaskOperations,
  type TaskRecord,
  type TaskStore,
} from '@mcp-tasks/task-store';
import { handBackTask } from '@mcp-tasks/task-store/transitions';
import type { DurableDeps } from './durableCall.js';
import type { RequestEnvelope } from './envelope.js';
import { type ResolvedExecutionOptions, resolveExecutionOptions } from './executionOptions.js';
import { isJsonObject } from './jsonRpc.js';
import { LeaseKeeper } from './leaseKeeper.js';
import { TaskAbortError } from './taskAbort.js';
import type { ExecutionHost, RunEnd } from './taskExecutor.js';
import { TaskMethods } from './taskMethods.js';
import { SHUTDOWN_ERROR } from './taskOutcomes.js';
import { TaskTelemetry, telemetryHooks, withTelemetry } from './taskTelemetry.js';
import type { TelemetryOptions } from './telemetryOptions.js';
import { createToolContext, type InputChannel } from './toolContext.js';
import type { ToolLaunch } from './toolLaunch.js';
import { type RegisteredTool, runsAgain } from './toolRegistry.js';
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
  /** The registered tools, for running a `resumable` or `durable` tool again for an existing task. */
  readonly tools: ReadonlyMap<string, RegisteredTool>;
  /** @default the defaults of `McpServerOptions.execution` */
  readonly execution?: ResolvedExecutionOptions;
  /** @default the global OpenTelemetry providers (nothing is recorded when none is configured) */
  readonly telemetry?: TelemetryOptions | undefined;
  readonly report: (error: unknown) => void;
}

/**
 * The task side of a server, in four parts: {@link methods} answers `tasks/get|update|cancel`; {@link supervisor}
 * starts, aborts and stops tools (the outcome of each is mapped to a store write by `writeToolOutcome`); the lease
 * keeper renews this instance's leases and resolves tasks of lost workers; the executor (from the first `durable`
 * tool on) claims durable tasks and runs them here through this runtime, its {@link ExecutionHost}. All share one
 * `TaskOperations`.
 */
export class TaskRuntime implements ExecutionHost {
  readonly ops: TaskOperations;
  readonly methods: TaskMethods;
  readonly supervisor: ToolSupervisor;
  readonly workerId: string;
  /** Spans and metrics of the tasks; undefined when the host configured no OpenTelemetry. */
  readonly telemetry: TaskTelemetry | undefined;
  readonly #keeper: LeaseKeeper;
  readonly #options: TaskRuntimeOptions;
  readonly #execution: ResolvedExecutionOptions;
  readonly #durable: DurableDeps | undefined;
  #executing = false;

  constructor(options: TaskRuntimeOptions) {
    this.#options = options;
    this.workerId = options.workerId;
    const telemetry = TaskTelemetry.create(options.telemetry, options.workerId);
    this.telemetry = telemetry;
    this.ops = new TaskOperations(options.store, {
      onListenerError: options.report,
      keepFinishedMs: options.keepFinishedMs,
      ...telemetryHooks(telemetry),
    });
    if (telemetry !== undefined) this.ops.listenAll(telemetry.observe);
    const execution = options.execution ?? resolveExecutionOptions(undefined, options.report);
    this.#execution = execution;
    // Through the operations' store: with telemetry on, the store calls of durable work are timed too.
    const store = this.ops.store;
    this.#durable = isDurableTaskStore(store)
      ? {
          ops: this.ops,
          store,
          workerId: options.workerId,
          parkAfterMs: execution.parkAfterMs,
          retry: execution.retry,
          onEvent: withTelemetry(execution.onEvent, telemetry),
          ...(telemetry?.tracing === true ? { traceStep: telemetry.traceStep } : {}),
        }
      : undefined;
    this.supervisor = new ToolSupervisor({
      ...options,
      ops: this.ops,
      newTaskId: createTaskIdGenerator(),
      durable: this.#durable,
      queueDurable: execution.role === 'front',
      telemetry,
    });
    this.methods = new TaskMethods(
      this.ops,
      (taskId, reason) => this.supervisor.abort(taskId, reason),
      telemetry === undefined ? undefined : (record) => telemetry.poll(record),
    );
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
   * Called for each `durable` tool registered: checks the store can keep durable work, and (except on a front)
   * starts the executor once. Throws when the store does not implement `DurableTaskStore`.
   */
  enableDurable(tool: RegisteredTool): void {
    if (this.#durable === undefined) {
      throw new Error(
        `Tool ${tool.definition.name} is durable, but the task store does not implement DurableTaskStore`,
      );
    }
    if (this.#executing || this.#execution.role === 'front') return;
    this.#executing = true;
    this.#execution.executor.start(this);
  }

  claim(limit: number): Promise<readonly TaskRecord[]> {
    const store = this.#durable?.store;
    if (store === undefined || limit <= 0) return Promise.resolve([]);
    const { leaseMs } = this.#options;
    return store.claim({ worker: this.workerId, limit, leaseMs, now: Date.now() });
  }

  async run(task: TaskRecord): Promise<RunEnd> {
    const durable = this.#durable;
    const tool = this.#toolOf(task);
    if (durable === undefined || tool?.definition.durable !== true) {
      await this.#failUnrunnable(task);
      return 'lost';
    }
    // This instance still runs an older run of the task, whose lease lapsed (renewals too slow): the claim took it
    // over, so the older run must stop before the new one starts.
    this.supervisor.abort(task.taskId, new TaskAbortError('lease_lost', 'A newer run of the task took it over'));
    try {
      const steps = await durable.store.steps(task.owner, task.taskId);
      const attempt = task.execution?.attempt ?? 1;
      durable.onEvent({ type: 'claimed', taskId: task.taskId, attempt });
      return await this.supervisor.resume(task, tool, this.#contextFor(task), steps);
    } catch (error) {
      this.#options.report(error);
      return 'lost';
    }
  }

  onRunnable(listener: () => void): () => void {
    const off = this.ops.listenAll((event) => {
      if (event.type !== 'expired' && event.record.execution?.state === 'queued') listener();
    });
    // Events flow once the store's change feed is watched: a worker that never served a waiting call must start it,
    // or it would hear of hand-backs and wakes only at its claim interval.
    this.ops.ready().catch(this.#options.report);
    return off;
  }

  /**
   * Stops claiming, aborts every tool (`shutdown`; durable ones are drained: see `ToolSupervisor.close`), waits at
   * most `graceMs` for them, then records the tasks they leave unfinished: a durable task is handed back at once
   * (queued for any worker); with `release` (the store outlives this instance) a resumable tool's lease is released
   * for the next lease sweep; any other is failed. Stops the lease keeper and the change feed.
   */
  async close(graceMs: number, release: boolean): Promise<void> {
    if (this.#executing) await this.#execution.executor.stop();
    await this.#keeper.stop();
    const unfinished = await this.supervisor.close(graceMs, release);
    const { workerId } = this.#options;
    for (const call of unfinished) {
      const write =
        call.durable !== undefined
          ? this.ops.apply(call.owner, call.taskId, (current) => handBackTask(current, workerId))
          : release && call.tool.definition.resumable === true
            ? this.ops.releaseLease(call.owner, call.taskId, workerId)
            : this.ops.fail(call.owner, call.taskId, SHUTDOWN_ERROR, 'The server shut down before the tool finished');
      await write.catch((error: unknown) => {
        if (!isTaskStoreError(error)) this.#options.report(error);
      });
    }
    await this.ops.close();
  }

  #toolOf(record: TaskRecord): RegisteredTool | undefined {
    const meta = record.requestMeta;
    return typeof meta?.name === 'string' ? this.#options.tools.get(meta.name) : undefined;
  }

  /** A claimed task whose tool is not a durable tool here cannot run anywhere like this: it fails, saying why. */
  async #failUnrunnable(task: TaskRecord): Promise<void> {
    const name = typeof task.requestMeta?.name === 'string' ? task.requestMeta.name : '(unknown)';
    const message = `Tool ${name} is not registered as a durable tool on worker ${this.workerId}`;
    await this.ops
      .fail(task.owner, task.taskId, { code: ErrorCode.InternalError, message }, message)
      .catch((error: unknown) => this.#options.report(error));
  }

  /** Runs a resumable tool again for `record` (which holds this instance's lease); false when not resumable here. */
  #resume(record: TaskRecord): boolean {
    const tool = this.#toolOf(record);
    const meta = record.requestMeta;
    if (tool === undefined || !runsAgain(tool) || meta === undefined) return false;
    // A task created by an era adapter (it stores its `wire`, e.g. 2025-11-25) asks its questions as requests in the
    // client's session, which a resumed run cannot reach; only tasks of the core's own wire are resumed.
    if (meta.wire !== undefined) return false;
    void this.supervisor.resume(record, tool, this.#contextFor(record));
    return true;
  }

  /** The context of a run of `record`'s tool, rebuilt from what the task stored about its call. */
  #contextFor(record: TaskRecord): ToolLaunch['makeContext'] {
    const meta = record.requestMeta ?? {};
    const envelope: RequestEnvelope = {
      protocolVersion: typeof meta.protocolVersion === 'string' ? meta.protocolVersion : '',
      clientCapabilities: isJsonObject(meta.clientCapabilities) ? meta.clientCapabilities : {},
      meta: {},
    };
    const principal = typeof meta.principal === 'string' ? meta.principal : undefined;
    return (channel: InputChannel, abort, streaming) =>
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
      );
  }
}
