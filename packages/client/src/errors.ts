/**
 * Local client errors. JSON-RPC error responses surface as `ProtocolError` (from `@mcp-tasks/protocol`) and
 * transport failures as `TransportError`; everything the client itself concludes is one of these, matched on
 * `code`. None of them is ever sent on the wire.
 */
import type { ProtocolError } from '@mcp-tasks/protocol';

/** Why a client operation failed locally. */
export type McpClientErrorCode =
  | 'invalid_response'
  | 'task_failed'
  | 'task_cancelled'
  | 'task_not_found'
  | 'task_expired'
  | 'task_stuck'
  | 'input_handler_failed'
  | 'unsupported_in_era';

/** Base class of every local client error. */
export class McpClientError extends Error {
  /** The error class's name, e.g. `'TaskFailedError'`. */
  override readonly name: string = 'McpClientError';
  /** What went wrong; match on it rather than on the class or the message. */
  readonly code: McpClientErrorCode;

  /** Creates the error; `options.cause` is kept as the standard `cause`. */
  constructor(code: McpClientErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

/**
 * The server answered with something the protocol does not allow here: not JSON-RPC, a wrong id, a result that
 * fails its schema, an unknown `resultType`, or a `task` result the request could not receive.
 */
export class InvalidResponseError extends McpClientError {
  /** Always `'InvalidResponseError'`. */
  override readonly name = 'InvalidResponseError';
  /** The method of the request the response answered. */
  readonly method: string;

  /** Creates the error; the message names `method`. */
  constructor(method: string, message: string, options?: { cause?: unknown }) {
    super('invalid_response', `Invalid response to ${method}: ${message}`, options);
    this.method = method;
  }
}

/** The task ended `failed`; `error` is the JSON-RPC error of the original call. */
export class TaskFailedError extends McpClientError {
  /** Always `'TaskFailedError'`. */
  override readonly name = 'TaskFailedError';
  /** The task that failed. */
  readonly taskId: string;
  /** The task's error, as a `ProtocolError` (also the `cause`). */
  readonly error: ProtocolError;
  /** The task's last status message, if it had one. */
  readonly statusMessage: string | undefined;

  /** Creates the error for the failed task `taskId`. */
  constructor(taskId: string, error: ProtocolError, statusMessage?: string) {
    super('task_failed', `Task ${taskId} failed: ${statusMessage ?? error.message}`, { cause: error });
    this.taskId = taskId;
    this.error = error;
    this.statusMessage = statusMessage;
  }
}

/** The task ended `cancelled` (by the server, or by a cancel that was not ours to report as an abort). */
export class TaskCancelledError extends McpClientError {
  /** Always `'TaskCancelledError'`. */
  override readonly name = 'TaskCancelledError';
  /** The task that was cancelled. */
  readonly taskId: string;
  /** The task's last status message, if it had one. */
  readonly statusMessage: string | undefined;

  /** Creates the error for the cancelled task `taskId`. */
  constructor(taskId: string, statusMessage?: string) {
    super('task_cancelled', `Task ${taskId} was cancelled${statusMessage ? `: ${statusMessage}` : ''}`);
    this.taskId = taskId;
    this.statusMessage = statusMessage;
  }
}

/** `tasks/get` answered `-32602`: the task does not exist, expired or was purged. `cause` is that error. */
export class TaskNotFoundError extends McpClientError {
  /** Always `'TaskNotFoundError'`. */
  override readonly name = 'TaskNotFoundError';
  /** The task the server no longer knows. */
  readonly taskId: string;

  /** Creates the error; `cause` is the server's `-32602` error. */
  constructor(taskId: string, cause: ProtocolError) {
    super('task_not_found', `Task ${taskId} not found or expired: ${cause.message}`, { cause });
    this.taskId = taskId;
  }
}

/** `createdAt + ttlMs` passed with no terminal status; the client stopped driving the task. */
export class TaskExpiredError extends McpClientError {
  /** Always `'TaskExpiredError'`. */
  override readonly name = 'TaskExpiredError';
  /** The task that passed its TTL. */
  readonly taskId: string;

  /** Creates the error; the message names the task's creation time and TTL. */
  constructor(taskId: string, createdAt: string, ttlMs: number) {
    super('task_expired', `Task ${taskId} passed its TTL (created ${createdAt}, ttl ${ttlMs} ms) without finishing`);
    this.taskId = taskId;
  }
}

/**
 * The task stayed in `input_required` for `polls` consecutive observations with every request already answered.
 * The client sent `tasks/cancel` and waited (boundedly) for the ack before throwing this: `cancelled` says whether
 * the server acknowledged it; if not, `cause` is why, and a journalled task stays in the journal.
 */
export class TaskStuckError extends McpClientError {
  /** Always `'TaskStuckError'`. */
  override readonly name = 'TaskStuckError';
  /** The task that made no progress. */
  readonly taskId: string;
  /** How many consecutive observations found it stuck. */
  readonly polls: number;
  /** Whether the server acknowledged the `tasks/cancel` the client sent. */
  readonly cancelled: boolean;

  /**
   * Creates the error; `options.cancelError`, when present, is why the cancel was not acknowledged (and the `cause`).
   */
  constructor(taskId: string, polls: number, options: { cancelError?: unknown } = {}) {
    const cancelled = !('cancelError' in options);
    const outcome = cancelled
      ? 'cancelled it'
      : `could not cancel it (${options.cancelError instanceof Error ? options.cancelError.message : String(options.cancelError)})`;
    super('task_stuck', `Task ${taskId} made no progress in input_required after ${polls} polls; ${outcome}`, {
      ...(cancelled ? {} : { cause: options.cancelError }),
    });
    this.taskId = taskId;
    this.polls = polls;
    this.cancelled = cancelled;
  }
}

/**
 * An input request could not be answered: no handler is registered for its method, or a sampling/roots handler
 * threw (those result types have no way to decline). `cause` is the handler's error, if any.
 */
export class InputHandlerError extends McpClientError {
  /** Always `'InputHandlerError'`. */
  override readonly name = 'InputHandlerError';
  /** The `inputRequests` key. */
  readonly key: string;
  /** The input request's method, e.g. `sampling/createMessage`. */
  readonly method: string;

  /** Creates the error; `options.cause` is the handler's error, if any. */
  constructor(key: string, method: string, message: string, options?: { cause?: unknown }) {
    super('input_handler_failed', `Input request ${key} (${method}): ${message}`, options);
    this.key = key;
    this.method = method;
  }
}

/**
 * The operation does not exist in the protocol era the server speaks, e.g. `tasks/update` or resuming a task by id
 * in a 2025-era session (whose tasks belong to the session and end with it).
 */
export class UnsupportedInEraError extends McpClientError {
  /** Always `'UnsupportedInEraError'`. */
  override readonly name = 'UnsupportedInEraError';
  /** The operation, e.g. `tasks/update`. */
  readonly operation: string;

  /** Creates the error; the message names the protocol version the server speaks. */
  constructor(operation: string, protocolVersion: string) {
    super('unsupported_in_era', `${operation} is not available with a server speaking MCP ${protocolVersion}`);
    this.operation = operation;
  }
}
