import { ErrorCode, ProtocolError } from '@mcp-tasks/protocol';

/** Node socket errors and PostgreSQL SQLSTATE classes that mean "the database cannot answer now". */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
]);
const UNAVAILABLE_SQLSTATE = /^(08|53|57P)/; // connection exception, insufficient resources, operator intervention
const STATEMENT_TIMEOUT = '57014';

/** Seconds a caller is told to wait before retrying a request the store could not serve (`data.retryAfterSeconds`). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/**
 * The task store's database could not be reached or did not answer in time. A `ProtocolError` with code `-32603`
 * so a server answers the request with this message (where the database is, what went wrong) instead of a bare
 * "Internal error", and goes on serving. `data.retryAfterSeconds` marks it transient: the same request may succeed
 * once the database answers again (Streamable HTTP answers it with `503` and `Retry-After`).
 */
export class TaskStoreUnavailableError extends ProtocolError {
  /** Wraps the driver's error as `cause`; `message` names the database and what went wrong. */
  constructor(message: string, cause: unknown) {
    super(ErrorCode.InternalError, message, { retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS }, { cause });
  }
}

/** Whether `error` (from `pg`) means the database is unreachable, overloaded or too slow. */
export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  if (code === STATEMENT_TIMEOUT) return true;
  return /Connection terminated|timeout exceeded when trying to connect|timeout expired|Query read timeout/i.test(
    error.message,
  );
}

/** pg-pool's message when no pooled client came free in time (a failed new connection reads differently). */
const POOL_WAIT_TIMEOUT = 'timeout exceeded when trying to connect';

/**
 * Wraps an unavailability error of `pg` as {@link TaskStoreUnavailableError}; anything else is returned as is. A
 * pool that stayed busy for `poolWaitTimeoutMs` is told apart from a database that did not answer.
 */
export function mapDatabaseError(error: unknown, where: string, poolWaitTimeoutMs?: number): unknown {
  if (!isUnavailable(error)) return error;
  const detail = error instanceof Error ? error.message : String(error);
  if (poolWaitTimeoutMs !== undefined && detail === POOL_WAIT_TIMEOUT) {
    return new TaskStoreUnavailableError(
      `Task store busy: no pooled connection to PostgreSQL at ${where} came free within ${poolWaitTimeoutMs} ms`,
      error,
    );
  }
  return new TaskStoreUnavailableError(
    `Task store unavailable: PostgreSQL at ${where} did not answer (${detail})`,
    error,
  );
}
