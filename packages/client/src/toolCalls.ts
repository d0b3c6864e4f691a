/**
 * `tools/call` in the 2026-07-28 era: started with its MRTR rounds answered, recorded in the journal when it
 * became a task, and driven to its end (polling, or the listen stream) on behalf of `callTool` and `resumeTask`.
 */
import {
  type CallToolResult,
  CallToolResultSchema,
  type CreateTaskResult,
  type DetailedTask,
} from '@mcp-tasks/protocol';
import { classifyResult } from './classifyResult.js';
import type { ClientRequests } from './clientRequests.js';
import type { Clock } from './clock.js';
import type { InputHandlers } from './inputResolver.js';
import type { ListenMultiplexer } from './listenMultiplexer.js';
import { type ListenOptions, listenMultiplexer } from './listenOptions.js';
import type {
  CallToolOptions,
  ProgressCallOptions,
  RawCallOptions,
  RawCallToolResult,
  StartToolResult,
} from './mcpClientOptions.js';
import { parseResult as parse } from './parseResult.js';
import type { RawResult } from './rpcClient.js';
import { type DriveTaskOptions, driveTask, type TaskRpc } from './taskDriver.js';
import type { TaskJournal } from './taskJournal.js';
import type { ResolvedPollingOptions } from './taskTracker.js';

type Params = Readonly<Record<string, unknown>>;

/** What {@link ToolCalls} needs from the client. */
export interface ToolCallsOptions {
  readonly requests: ClientRequests;
  /** The client's task methods (`tasks/get`, `tasks/update`, `tasks/cancel`). */
  readonly operations: TaskRpc;
  readonly handlers: InputHandlers;
  /** Whether a task may answer a call. */
  readonly acceptsTask: boolean;
  readonly polling: ResolvedPollingOptions;
  readonly clock: Clock;
  readonly journal: TaskJournal | undefined;
  /** `tasks.listen`: whether (and how) the driven tasks share listen streams. */
  readonly listen: boolean | ListenOptions | undefined;
}

/** The 2026-07-28 `tools/call` of one client. */
export class ToolCalls {
  readonly #options: ToolCallsOptions;
  /** The listen stream(s) shared by the tasks this client drives, with `tasks.listen`. */
  readonly #listen: ListenMultiplexer | undefined;

  /** Rejects invalid `listen` options (`RangeError`). */
  constructor(options: ToolCallsOptions) {
    this.#options = options;
    this.#listen = listenMultiplexer(options.listen, options.clock, options.requests.openListen);
  }

  /** `McpClient.startTool` in the 2026-07-28 era. */
  async start(name: string, args: Params, options: ProgressCallOptions): Promise<StartToolResult> {
    const outcome = await this.#options.requests.rounds('tools/call', { name, arguments: args }, options);
    if (outcome.kind === 'complete')
      return { kind: 'complete', result: parse('tools/call', CallToolResultSchema, outcome.result) };
    await this.#options.journal?.add({
      taskId: outcome.task.taskId,
      method: 'tools/call',
      name,
      arguments: args,
      recordedAt: new Date(this.#options.clock.now()).toISOString(),
    });
    return { kind: 'task', task: outcome.task };
  }

  /** `McpClient.callToolRaw`: one `tools/call`, classified. */
  async raw(name: string, args: Params, options: RawCallOptions): Promise<RawCallToolResult> {
    const params: Record<string, unknown> = { name, arguments: args };
    if (options.inputResponses !== undefined) params.inputResponses = options.inputResponses;
    if (options.requestState !== undefined) params.requestState = options.requestState;
    const sent = await this.#options.requests.send('tools/call', params, options);
    const classified = classifyResult('tools/call', sent, this.#options.acceptsTask);
    if (classified.kind !== 'complete') return classified;
    return { kind: 'complete', result: parse('tools/call', CallToolResultSchema, classified.result) };
  }

  /** `McpClient.resumeTask`: the origin comes from the journal entry when there is one. */
  async resume(taskId: string, options: CallToolOptions): Promise<CallToolResult> {
    const entry = (await this.#options.journal?.list())?.find((candidate) => candidate.taskId === taskId);
    const origin =
      entry === undefined
        ? { method: 'tools/call' }
        : { method: entry.method, params: { name: entry.name, arguments: entry.arguments ?? {} } };
    return this.drive(taskId, undefined, options, origin);
  }

  /** Drives task `taskId` to its end with `driveTask`, observed through the listen stream when there is one. */
  drive(
    taskId: string,
    seed: CreateTaskResult | undefined,
    options: CallToolOptions,
    origin: DriveTaskOptions<CallToolResult>['origin'],
  ): Promise<CallToolResult> {
    const { operations, polling } = this.#options;
    const observer = this.#listen?.observe(
      taskId,
      (signal): Promise<DetailedTask> => operations.get(taskId, signal),
      polling.maxIntervalMs,
    );
    return driveTask(taskId, seed, {
      observer,
      operations,
      handlers: this.#options.handlers,
      polling,
      clock: this.#options.clock,
      // The stored result is what tools/call would have returned; it may omit resultType like any result.
      parseResult: (result) => {
        const classified = classifyResult('tasks/get', result as RawResult, false);
        return parse('tasks/get', CallToolResultSchema, classified.kind === 'complete' ? classified.result : result);
      },
      signal: options.signal,
      onStatus: options.onStatus,
      journal: this.#options.journal,
      origin,
    });
  }
}
