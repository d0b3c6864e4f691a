import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  InputRequest,
  ListRootsResult,
} from '@mcp-tasks/protocol';
import type { MrtrInfo, ToolMode } from './inputChannel.js';
import type { JsonObject } from './jsonRpc.js';
import type { LogLevel } from './logLevels.js';
import type { InputRequired } from './mrtr.js';

/** What every handler learns about the request it serves. */
export interface RequestInfo {
  /** The authenticated principal, or undefined on unauthenticated transports. */
  readonly principal: string | undefined;
  /** The protocol version this request is served under (`2026-07-28`, or the 2025-era session's version). */
  readonly protocolVersion: string;
  /** This request's `clientCapabilities` (for a task: those of the request that created it). */
  readonly clientCapabilities: JsonObject;
  /**
   * This request's whole `_meta`. For a task, once its `CreateTaskResult` is sent, a deep-frozen copy shared with
   * the other tasks whose `_meta` is equal (so many waiting tasks of one client keep one); read it, never change it.
   */
  readonly meta: JsonObject;
  /**
   * Aborted when the client goes away (sync calls, and task-mode calls until their answer is decided, e.g. during
   * the immediate-result grace period), or when the task is cancelled, expires or the server closes. Long work
   * should watch it.
   */
  readonly signal: AbortSignal;
  /**
   * Calls `listener` once, with the abort reason, when {@link signal} aborts; at once (synchronously) when it already
   * has. The same events as `signal` without making it: a task's `AbortSignal` is made on first read, and in Node 20
   * one costs about a kilobyte of heap with a listener, which adds up for a tool that keeps tens of thousands of
   * tasks waiting. Adding one allocates nothing. A task call's abort also fires once the call has ended (its tool
   * settled and its outcome is written; the reason then says the task finished), so a listener still registered is
   * called then and let go: removing it with {@link offAbort} is only needed to stop it earlier. A synchronous call's
   * listeners (and those of `collectInput`, prompt and resource handlers) are let go uncalled once the handler
   * settled: the request's signal may outlive it (a transport may give every request its connection's signal).
   */
  onAbort(listener: (reason: unknown) => void): void;
  /** Removes a listener added with {@link onAbort} (once, if added several times); a no-op when it is not there. */
  offAbort(listener: (reason: unknown) => void): void;
}

/** Which client feature an input request needs. */
export type InputKind = 'elicitation' | 'sampling' | 'roots';

/** Context for any handler that may answer `input_required` (tools, prompts, resources). */
export interface HandlerContext extends RequestInfo, MrtrInfo {
  /** True when this request declared the capability for `kind` (form elicitation for `elicitation`). */
  canRequest(kind: InputKind): boolean;
  /**
   * Builds an `input_required` answer. The runtime signs `state` into `requestState` (bound to this tool/prompt
   * and principal) and refuses with `-32021` when a request needs an undeclared capability.
   */
  inputRequired(options: { inputRequests?: Record<string, InputRequest>; state?: unknown }): InputRequired;
  /** Sends `notifications/progress` when the request carried a progress token; a no-op otherwise and in tasks. */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends `notifications/message` only when the request set a log level and `level` passes it. */
  log(level: LogLevel, data: unknown, logger?: string): void;
}

/** Context of a tool call. Asking for input works the same in every mode; `mode` tells which one runs. */
export interface ToolContext extends HandlerContext {
  /** How this call runs: `task`, `grace` or `sync`; see {@link ToolMode}. */
  readonly mode: ToolMode;
  /**
   * The call's task id: set for a task-mode call from the start, also during the grace period (the id is
   * reserved before the task is created, and is the one it will have); undefined for a synchronous call.
   */
  readonly taskId: string | undefined;
  /**
   * Which run of the task's work this is: 1 for the first; a durable task's re-runs (after a lost worker, a drain,
   * a retry or a parked question's answer) count up. Always 1 for a call whose task is not durable.
   */
  readonly attempt: number;
  /**
   * Sets the task's `statusMessage` (creating the task during the grace period); a no-op for a synchronous call.
   * A store briefly unavailable is retried while this instance holds the task's lease.
   */
  setStatus(message: string): Promise<void>;
  /**
   * Asks the client for input and resolves with its answer, in any mode: in a task through `input_required` and
   * `tasks/update` (during the grace period this creates the task first); in a synchronous call by MRTR: an
   * unanswered question ends this run of the handler (the promise rejects; let it propagate), the call answers
   * `input_required`, and the client's retry runs the handler again with the answers replayed in order.
   * Rejects with `-32021` when the request did not declare the capability.
   */
  elicit(params: ElicitRequestParams): Promise<ElicitResult>;
  /**
   * Runs a named part of the tool's work. For a `durable` tool's task, the step's JSON result is written to the
   * task store before this resolves, and when the task's work runs again (its worker was lost, its server drained,
   * an answer woke a parked task, a `RetryableError` asked for a retry) a step that completed returns its stored
   * result without running; only the step in flight when the run stopped runs again. So put every side effect of
   * the tool in a step, give each step a name unique within the task, and let the code between steps only decide
   * what to do next. The resolved value is the result as JSON gives it back (a `Date` becomes a string), in every
   * run (a step that returns nothing gives `null`). Its `signal` aborts on cancel, expiry and lost lease. Results count against the store's step limits
   * (`TaskStoreError` `step_limit`: 1 MiB per step, 8 MiB per task by default). In a synchronous call or a task
   * whose tool is not durable the step just runs.
   */
  step<T>(name: string, run: (signal: AbortSignal) => T | Promise<T>): Promise<T>;
  /** Asks the client's model (`sampling/createMessage`); works like {@link elicit}. */
  sample(params: CreateMessageRequestParams): Promise<CreateMessageResult>;
  /** Asks for the client's roots (`roots/list`); works like {@link elicit}. */
  listRoots(): Promise<ListRootsResult>;
}
