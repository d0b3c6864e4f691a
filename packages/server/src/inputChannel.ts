import type { InputRequest, InputResponse } from '@mcp-tasks/protocol';
import type { JsonObject } from './jsonRpc.js';

/** MRTR state of a request: the answers of a retry and the handler's own state from the verified `requestState`. */
export interface MrtrInfo {
  /**
   * The retry's `inputResponses` (every value an object; answers to the keys the previous round asked for match
   * their request's result schema when the retry echoes its `requestState`); `{}` on the first round.
   */
  readonly inputResponses: Readonly<Record<string, JsonObject>>;
  /** The `state` given to {@link HandlerContext.inputRequired} in the previous round, after verification. */
  readonly requestState: unknown;
}

/**
 * How a tool call runs: `task` once its task exists; `grace` while a task-mode call is inside the
 * immediate-result grace period (its task id is already reserved; the first question or status update creates the
 * task); `sync` for a synchronous call.
 */
export type ToolMode = 'task' | 'grace' | 'sync';

/** Where a tool's questions and status go: the call's task, or MRTR replay for a synchronous call. */
export interface InputChannel {
  readonly mode: ToolMode;
  readonly taskId: string | undefined;
  /** The run of the task's work this is (see `ToolContext.attempt`). */
  readonly attempt: number;
  /** Resolves with the answer, already validated against the result schema of `request.method`. */
  ask(request: InputRequest): Promise<InputResponse>;
  setStatus(message: string): Promise<void>;
  /**
   * Runs a named step of the tool's work (recorded and replayed for a durable task; see `ToolContext.step`);
   * `signal` is the call's, for a channel that holds none.
   */
  step<T>(name: string, run: (signal: AbortSignal) => T | Promise<T>, signal: AbortSignal): Promise<T>;
  /**
   * For the channel of a durable task's run: waits for the answer to the input request `key` already issued to the
   * task, parking the task once it waited `parkAfterMs` (the wait then rejects with a `parked` abort and the
   * question stays open in the store). Undefined when the task does not run durably. Absent on other channels.
   */
  awaitDurable?(key: string): Promise<InputResponse> | undefined;
}
