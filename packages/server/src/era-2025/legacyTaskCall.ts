import {
  type CreateTaskResult,
  ErrorCode,
  type LegacyCreateTaskResult,
  LegacyTaskMetadataSchema,
  onAbort,
  ProtocolError,
  type RequestContext,
  type TransportNotification,
  withFields,
} from '@mcp-tasks/protocol';
import { isTaskStoreError, isTerminalStatus, type TaskOperations } from '@mcp-tasks/task-store';
import type { RequestEnvelope } from '../envelope.js';
import { formatZodError, invalidParams } from '../errors.js';
import type { JsonObject } from '../jsonRpc.js';
import { taskLimitError } from '../taskLimitError.js';
import { findTool, parseToolCallArguments, taskRequestMeta } from '../toolCall.js';
import { createToolContext, type RequestScope } from '../toolContext.js';
import { completeToolResult } from '../toolInvocation.js';
import type { RegisteredTool } from '../toolRegistry.js';
import type { ToolSupervisor } from '../toolSupervisor.js';
import type { LegacyPeerAsk } from './legacyPeerAsk.js';
import type { LegacyResultStreams } from './legacyResultStreams.js';
import { collectInputFromPeer } from './legacyTaskCollect.js';
import { LegacyTaskInput } from './legacyTaskInput.js';
import { LEGACY_TASK_WIRE, legacyTaskStatusNotification, toLegacyTask, withRelatedTask } from './legacyTaskWire.js';

/** What a task-augmented 2025-11-25 `tools/call` needs from the server. */
export interface LegacyTaskCallDeps {
  readonly tools: ReadonlyMap<string, RegisteredTool>;
  readonly ops: TaskOperations;
  readonly supervisor: ToolSupervisor;
  /** The server's task lifetime: used when the request asks for none, and caps what it asks (null: no cap). */
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  readonly maxInputRequestsPerTask: number;
  /** Waiting `tasks/result` requests, whose streams the task's questions prefer (shared with the task methods). */
  readonly streams?: LegacyResultStreams;
}

/** One task-augmented `tools/call` in a 2025-11-25 session. */
export interface LegacyTaskCallRequest {
  /** The request's params, `task` included. */
  readonly params: JsonObject;
  /** Who owns the task: the principal, or for an unauthenticated session a value naming the session. */
  readonly owner: string;
  /** The session's capabilities, log level and the request's progress token, as the tool context reads them. */
  readonly envelope: RequestEnvelope;
  readonly context: RequestContext;
  /** Sends the tool's questions to the client as requests in the session (see {@link LegacyPeerAsk}). */
  readonly ask: LegacyPeerAsk;
  /**
   * Sends a notification in the session: `notifications/tasks/status` on every status change of the task, and the
   * tool's progress and log messages (with the related-task `_meta`) until the task ends. @default context.notify
   */
  readonly notify?: (notification: TransportNotification) => void;
  /** Aborts when the session ends: notifications about the task stop. */
  readonly sessionClosed?: AbortSignal;
}

/**
 * Whether a 2025-11-25 `tools/call` runs as a task, by the tool's `execution.taskSupport`: `'task'` when it asks
 * for one (`params.task`) and the tool allows it; `'direct'` when it does not ask and the tool allows that.
 * `-32601` for a task asked of a tool that forbids tasks, and for a tool that requires a task when none was asked;
 * `-32602` for an unknown tool or a malformed `params.task`. Call it only in sessions that negotiated 2025-11-25
 * (older sessions ignore `params.task`).
 */
export function legacyToolCallMode(tools: ReadonlyMap<string, RegisteredTool>, params: JsonObject): 'task' | 'direct' {
  const tool = findTool(tools, params);
  const asked = params.task !== undefined;
  if (asked) readTaskMetadata(params);
  if (asked && tool.taskSupport === 'forbidden') {
    throw new ProtocolError(ErrorCode.MethodNotFound, `Tool ${tool.definition.name} does not run as a task`);
  }
  if (!asked && tool.taskSupport === 'required') {
    throw new ProtocolError(ErrorCode.MethodNotFound, `Tool ${tool.definition.name} runs only as a task`);
  }
  return asked ? 'task' : 'direct';
}

/**
 * Serves a task-augmented 2025-11-25 `tools/call`: checks it like {@link legacyToolCallMode}, creates the task at
 * once (the tool's outcome never replaces it, however fast) and answers `{ task }` while the tool runs. Arguments
 * that fail the input schema give a task that has already failed with the `isError` result the model reads. The
 * task lives `params.task.ttl` ms, capped by the server's TTL. While the tool runs, its `ctx.elicit`, `sample` and
 * `listRoots` reach the client as related-task requests through `request.ask`. A `collectInput` phase runs first,
 * its questions sent to the client as plain requests.
 */
export async function callToolAsLegacyTask(
  deps: LegacyTaskCallDeps,
  request: LegacyTaskCallRequest,
): Promise<LegacyCreateTaskResult> {
  const { params, owner, envelope, context } = request;
  if (legacyToolCallMode(deps.tools, params) !== 'task') {
    throw invalidParams('Invalid params: task is required for a task-augmented call');
  }
  const tool = findTool(deps.tools, params);
  const ttlMs = taskTtl(readTaskMetadata(params).ttl, deps.ttlMs);
  const parsed = await parseToolCallArguments(tool, params);
  const base = taskRequestMeta(tool, parsed.ok ? parsed.value : {}, envelope, context.principal);
  const meta: JsonObject = withFields(base, { wire: LEGACY_TASK_WIRE });
  if (!parsed.ok) return failedTask(deps, owner, ttlMs, meta, completeToolResult(parsed.result));
  const notify = request.notify ?? ((notification: TransportNotification) => context.notify(notification));
  const mrtr = await collectInputFromPeer(
    tool,
    parsed.value,
    { principal: context.principal, envelope, abort: context, notify, streaming: () => true },
    request.ask,
  );
  const created = await deps.supervisor.start({
    owner,
    tool,
    args: parsed.value,
    requestMeta: meta,
    callerMeta: envelope.meta,
    signal: context.signal,
    alwaysTask: true,
    keepsNotifying: true,
    ttlMs,
    makeContext: (channel, abort) => {
      const taskId = channel.taskId ?? '';
      watchStatus(deps.ops, owner, taskId, notify, request.sessionClosed);
      const scope: RequestScope = {
        principal: context.principal,
        envelope,
        abort,
        mrtr,
        notify: (notification) => notify({ ...notification, params: withRelatedTask(notification.params, taskId) }),
        streaming: () => request.sessionClosed?.aborted !== true,
      };
      const { ops, maxInputRequestsPerTask: maxInputRequests, streams } = deps;
      const input = new LegacyTaskInput({
        ops,
        owner,
        inner: channel,
        taskId,
        ask: request.ask,
        signal: abort.signal,
        maxInputRequests,
        streams,
      });
      return createToolContext(scope, input);
    },
  });
  // `alwaysTask` makes the supervisor create the task before the tool runs, so the answer is its CreateTaskResult.
  if (created.resultType !== 'task') throw new Error('The supervisor answered without a task');
  return { task: toLegacyTask(created as CreateTaskResult) };
}

/** A task that has already failed with `result` (arguments that fail the schema): created and ended at once. */
async function failedTask(
  deps: LegacyTaskCallDeps,
  owner: string,
  ttlMs: number | null,
  requestMeta: JsonObject,
  result: JsonObject,
): Promise<LegacyCreateTaskResult> {
  const options = { ttlMs, pollIntervalMs: deps.pollIntervalMs, requestMeta };
  const task = await deps.ops.create(owner, options).catch((error: unknown) => {
    throw isTaskStoreError(error, 'task_limit') ? taskLimitError() : error;
  });
  const ended = await deps.ops.complete(owner, task.taskId, result);
  return { task: toLegacyTask(ended.found ? ended.record : task) };
}

/** Reads `params.task` (`{ ttl? }`, milliseconds); `-32602` when malformed. */
function readTaskMetadata(params: JsonObject): { readonly ttl?: number | undefined } {
  const parsed = LegacyTaskMetadataSchema.safeParse(params.task);
  if (!parsed.success) throw invalidParams(`Invalid params: ${formatZodError(parsed.error, 'task')}`);
  return parsed.data;
}

/** The requested lifetime, capped by the server's (which is also the default). */
function taskTtl(requested: number | undefined, server: number | null): number | null {
  if (requested === undefined) return server;
  return server === null ? requested : Math.min(requested, server);
}

/**
 * Sends `notifications/tasks/status` whenever the task's 2025-11-25 view (status, status message) changes, from
 * its creation until it ends, expires or the session closes.
 */
function watchStatus(
  ops: TaskOperations,
  owner: string,
  taskId: string,
  notify: (notification: TransportNotification) => void,
  sessionClosed: AbortSignal | undefined,
): void {
  if (sessionClosed?.aborted === true) return;
  let last = 'working\n';
  let off: (() => void) | undefined;
  const stop = () => {
    unlisten();
    off?.();
  };
  const unlisten = ops.listen(owner, taskId, (event) => {
    if (event.type === 'expired') return stop();
    const task = toLegacyTask(event.record);
    const view = `${task.status}\n${task.statusMessage ?? ''}`;
    if (view !== last) {
      last = view;
      notify(legacyTaskStatusNotification(task));
    }
    if (isTerminalStatus(event.record.status)) stop();
  });
  // A session's signal is shared by every task it watches: onAbort adds one listener to it, not one per task.
  if (sessionClosed !== undefined) off = onAbort(sessionClosed, stop);
}
