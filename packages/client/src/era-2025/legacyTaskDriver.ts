/**
 * `tools/call` in a 2025-era session, including the experimental tasks of 2025-11-25: augment the call when the
 * tool requires a task (or allows one and the caller asked), poll `tasks/get`, fetch the outcome from
 * `tasks/result`, cancel with `tasks/cancel` on abort. The 2026-07-28 task driver is not involved.
 */
import {
  ErrorCode,
  hasLegacyTasks,
  isRecord,
  type LegacyServerCapabilities,
  type LegacyTask,
  LegacyTaskSchema,
  type LegacyTaskSupport,
  LegacyTaskSupportSchema,
  META,
  ProtocolError,
  type Task,
  type Tool,
  type TransportNotification,
  withFields,
} from '@mcp-tasks/protocol';
import type { Clock } from '../clock.js';
import { InvalidResponseError, TaskCancelledError, TaskFailedError, TaskNotFoundError } from '../errors.js';
import type { CallToolOptions } from '../mcpClientOptions.js';
import { progressHandler } from '../progressHandler.js';
import { raceAbort } from '../raceAbort.js';
import type { RawResult } from '../rpcClient.js';
import { CANCEL_ACK_TIMEOUT_MS } from '../taskDriver.js';
import { pollDelay, type ResolvedPollingOptions } from '../taskTracker.js';
import type { CallsInFlight } from './legacyPeerHandler.js';
import type { LegacySession } from './legacySession.js';

type Params = Readonly<Record<string, unknown>>;

/** A call's options plus the notifications scoped to its `tools/call` (progress under the call's own token). */
export type LegacyCallOptions = CallToolOptions & {
  readonly onNotification?: ((notification: TransportNotification) => void) | undefined;
};

/** What {@link LegacyToolCalls} needs from the client. */
export interface LegacyToolCallsOptions {
  /** Sends one request in the session; with `onProgress`, under a fresh progress token. */
  readonly send: (method: string, params: Params, options: LegacyCallOptions) => Promise<RawResult>;
  /** Every tool of the server (`tools/list` to the end). */
  readonly listTools: (signal: AbortSignal | undefined) => Promise<readonly Tool[]>;
  readonly calls: CallsInFlight;
  readonly clock: Clock;
  readonly polling: ResolvedPollingOptions;
  /** A progress token no other request of this client has used. */
  readonly progressToken: () => string;
  /**
   * Routes notifications outside any request that carry `token` to `route` until the returned function is called:
   * a task's progress outlives the `tools/call` that created it.
   */
  readonly routeProgress: (token: string, route: (notification: TransportNotification) => void) => () => void;
}

/** `tools/call` in 2025-era sessions, remembering each tool's `execution.taskSupport` once listed. */
export class LegacyToolCalls {
  readonly #options: LegacyToolCallsOptions;
  readonly #support = new Map<string, LegacyTaskSupport>();

  constructor(options: LegacyToolCallsOptions) {
    this.#options = options;
  }

  /**
   * Calls tool `name` in `session`; see {@link callToolLegacy}. With `onProgress`, the call's progress token stays
   * routed until the call ends, so the progress of a task it became keeps arriving.
   */
  async call(session: LegacySession, name: string, args: Params, options: CallToolOptions): Promise<RawResult> {
    const { onProgress, ...rest } = options;
    let sendOptions: LegacyCallOptions = options;
    let unroute = (): void => undefined;
    let meta: Params | undefined;
    if (onProgress !== undefined) {
      const token = this.#options.progressToken();
      const route = progressHandler(token, onProgress);
      unroute = this.#options.routeProgress(token, route);
      meta = { [META.progressToken]: token };
      sendOptions = { ...rest, onNotification: route };
    }
    try {
      return await callToolLegacy(
        name,
        args,
        sendOptions,
        withFields(this.#options, {
          serverCapabilities: session.serverCapabilities,
          tasksVersion: hasLegacyTasks(session.protocolVersion),
          taskSupport: (tool: string, signal: AbortSignal | undefined) => this.#taskSupport(tool, signal),
          meta,
        }),
      );
    } finally {
      unroute();
    }
  }

  async #taskSupport(name: string, signal: AbortSignal | undefined): Promise<LegacyTaskSupport> {
    if (!this.#support.has(name)) {
      for (const tool of await this.#options.listTools(signal)) {
        const execution = (tool as { execution?: unknown }).execution;
        const support = LegacyTaskSupportSchema.safeParse(isRecord(execution) ? execution.taskSupport : undefined);
        this.#support.set(tool.name, support.success ? support.data : 'forbidden');
      }
    }
    return this.#support.get(name) ?? 'forbidden';
  }
}

/** What the legacy call needs from the client. */
export interface LegacyCallContext {
  /** Sends one request in the session; with `onProgress`, under a fresh progress token. */
  readonly send: (method: string, params: Params, options: LegacyCallOptions) => Promise<RawResult>;
  readonly serverCapabilities: LegacyServerCapabilities;
  /** Whether the session's version has tasks (2025-11-25). */
  readonly tasksVersion: boolean;
  /** The tool's `execution.taskSupport` (absent: `forbidden`). */
  readonly taskSupport: (name: string, signal: AbortSignal | undefined) => Promise<LegacyTaskSupport>;
  readonly calls: CallsInFlight;
  readonly clock: Clock;
  readonly polling: ResolvedPollingOptions;
  /** `_meta` for the `tools/call` (a progress token). */
  readonly meta?: Params | undefined;
}

/**
 * Calls tool `name` and resolves with the raw final result (the caller checks it as a `CallToolResult`): the
 * direct answer, or the `tasks/result` of the task the server created. A failed task whose result is a tool error
 * resolves with that result; a JSON-RPC error of the call rejects with `TaskFailedError`, a cancelled task with
 * `TaskCancelledError`, an unknown or expired one with `TaskNotFoundError`, and an abort with its reason (after a
 * best-effort `tasks/cancel` when the server offers it; never `notifications/cancelled` for a task).
 */
export async function callToolLegacy(
  name: string,
  args: Params,
  options: LegacyCallOptions,
  context: LegacyCallContext,
): Promise<RawResult> {
  const augment = await wantsTask(name, options, context);
  const params = {
    name,
    arguments: args,
    ...(augment === undefined ? {} : { task: augment }),
    ...(context.meta === undefined ? {} : { _meta: context.meta }),
  };
  const origin = { method: 'tools/call', params: { name, arguments: args } };
  const done = context.calls.add(origin, options.signal);
  try {
    const result = await context.send('tools/call', params, options);
    // A server that does not do tasks for this call processes it normally and ignores `task`.
    if (augment === undefined || !isRecord(result.task)) return result;
    const task = parseTask('tools/call', result.task);
    const untrack = context.calls.add({ ...origin, taskId: task.taskId }, options.signal);
    try {
      return await drive(task, options, context);
    } finally {
      untrack();
    }
  } finally {
    done();
  }
}

async function wantsTask(
  name: string,
  options: CallToolOptions,
  context: LegacyCallContext,
): Promise<{ ttl?: number } | undefined> {
  if (!context.tasksVersion || context.serverCapabilities.tasks?.requests?.tools?.call === undefined) return undefined;
  const support = await context.taskSupport(name, options.signal);
  const asked = options.task !== undefined && options.task !== false;
  if (support === 'forbidden' || (support === 'optional' && !asked)) return undefined;
  const ttl = typeof options.task === 'object' ? options.task.ttlMs : undefined;
  return ttl === undefined ? {} : { ttl };
}

async function drive(seed: LegacyTask, options: CallToolOptions, context: LegacyCallContext): Promise<RawResult> {
  const signal = options.signal ?? new AbortController().signal;
  const { taskId } = seed;
  let task = seed;
  try {
    report(options, task);
    while (task.status === 'working') {
      await context.clock.sleep(pollDelay({ pollIntervalMs: task.pollInterval }, context.polling), signal);
      task = await getTask(taskId, signal, context);
      report(options, task);
    }
    if (task.status === 'cancelled') throw new TaskCancelledError(taskId, task.statusMessage);
    // completed, failed or input_required: tasks/result waits for the end while the server's related requests
    // arrive through the peer handler.
    try {
      return await raceAbort(context.send('tasks/result', { taskId }, {}), signal);
    } catch (error) {
      if (error instanceof ProtocolError && !signal.aborted)
        throw new TaskFailedError(taskId, error, task.statusMessage);
      throw error;
    }
  } catch (error) {
    if (signal.aborted) {
      await cancel(taskId, context);
      throw signal.reason;
    }
    throw error;
  }
}

async function getTask(taskId: string, signal: AbortSignal, context: LegacyCallContext): Promise<LegacyTask> {
  try {
    // Not aborted through the transport: that would send notifications/cancelled, which tasks never get.
    return parseTask('tasks/get', await raceAbort(context.send('tasks/get', { taskId }, {}), signal));
  } catch (error) {
    if (error instanceof ProtocolError && error.code === ErrorCode.InvalidParams)
      throw new TaskNotFoundError(taskId, error);
    throw error;
  }
}

async function cancel(taskId: string, context: LegacyCallContext): Promise<void> {
  if (context.serverCapabilities.tasks?.cancel === undefined) return;
  await raceAbort(context.send('tasks/cancel', { taskId }, {}), AbortSignal.timeout(CANCEL_ACK_TIMEOUT_MS)).catch(
    () => undefined,
  );
}

function parseTask(method: string, value: unknown): LegacyTask {
  const parsed = LegacyTaskSchema.safeParse(value);
  if (!parsed.success) throw new InvalidResponseError(method, 'malformed task', { cause: parsed.error });
  return parsed.data;
}

function report(options: CallToolOptions, task: LegacyTask): void {
  try {
    options.onStatus?.(asTask(task));
  } catch {
    // A listener's failure is not the call's.
  }
}

/** A 2025-11-25 task in the shape status listeners know (`ttlMs`, `pollIntervalMs`). */
export function asTask(task: LegacyTask): Task {
  const { ttl, pollInterval, ...rest } = task;
  return { ...rest, ttlMs: ttl, ...(pollInterval === undefined ? {} : { pollIntervalMs: pollInterval }) };
}
