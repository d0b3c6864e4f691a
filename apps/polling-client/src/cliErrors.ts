/** Errors the CLI itself raises, and the mapping of every failure to an exit code and one readable line. */
import {
  InputHandlerError,
  InvalidResponseError,
  TaskCancelledError,
  TaskExpiredError,
  TaskFailedError,
  TaskNotFoundError,
  TaskStuckError,
  UnsupportedInEraError,
} from '@mcp-tasks/client';
import { OAuthFlowError } from '@mcp-tasks/oauth-client';
import { isProtocolError, TransportError } from '@mcp-tasks/protocol';

/** The documented exit codes. */
export const ExitCode = {
  Completed: 0,
  ToolError: 1,
  Usage: 2,
  CancelledOrExpired: 3,
  Connection: 4,
  Failed: 5,
  Interrupted: 130,
} as const;

/** A bad command line, a missing file or an unreadable answers file: exit 2, no stack trace. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The server could not be reached, refused us, or went away: exit 4. */
export class ConnectionError extends Error {
  override readonly name = 'ConnectionError';
}

/**
 * A task this run was following is unknown to its server after the connection came back: the server restarted
 * and lost it (tasks of the sample server live in memory), or it expired meanwhile. Exit 3.
 */
export class TaskLostError extends Error {
  override readonly name = 'TaskLostError';
  constructor(
    readonly taskId: string,
    options?: ErrorOptions,
  ) {
    super(
      `The server no longer knows task ${taskId} (it may have restarted and lost it, or the task expired); removed it from the journal`,
      options,
    );
  }
}

/** What to print and which code to exit with for an error that ended a command. */
export interface Failure {
  readonly code: number;
  readonly message: string;
}

/**
 * Classifies an error. Expected failures get a one-line message; anything else is reported as an internal error
 * (still one line; `--verbose` adds the stack).
 */
export function describeFailure(error: unknown): Failure {
  if (error instanceof UsageError) return { code: ExitCode.Usage, message: error.message };
  // The OAuth flow fails inside the transport's fetch: its reason, not the transport's, says what to do.
  const oauth = causedBy(error, OAuthFlowError);
  if (oauth instanceof OAuthFlowError) return { code: ExitCode.Connection, message: oauthMessage(oauth) };
  if (error instanceof ConnectionError) return { code: ExitCode.Connection, message: error.message };
  if (error instanceof TransportError) return { code: ExitCode.Connection, message: transportMessage(error) };
  if (error instanceof TaskFailedError) return { code: ExitCode.Failed, message: error.message };
  if (error instanceof TaskCancelledError || error instanceof TaskExpiredError || error instanceof TaskStuckError)
    return { code: ExitCode.CancelledOrExpired, message: error.message };
  if (error instanceof TaskLostError) return { code: ExitCode.CancelledOrExpired, message: error.message };
  // The client's message repeats the server's, which names the id again: say it once.
  if (error instanceof TaskNotFoundError)
    return {
      code: ExitCode.CancelledOrExpired,
      message: `The server does not know task ${error.taskId} (not found or expired)`,
    };
  // No terminal and no --answers: a usage problem, whichever layer reports it.
  const usage = causedBy(error, UsageError);
  if (usage !== undefined) return { code: ExitCode.Usage, message: usage.message };
  // The client cancelled the task because it could not answer an input request.
  if (error instanceof InputHandlerError) return { code: ExitCode.CancelledOrExpired, message: error.message };
  if (error instanceof InvalidResponseError) return { code: ExitCode.Failed, message: error.message };
  // e.g. `status` or `resume` against a 2025-era server, whose tasks end with their session.
  if (error instanceof UnsupportedInEraError) return { code: ExitCode.Usage, message: error.message };
  if (isProtocolError(error)) {
    // HTTP answers a bad token with 401 and a JSON-RPC error body, which arrives here rather than as a transport error.
    if (/unauthori[sz]ed|forbidden/i.test(error.message))
      return {
        code: ExitCode.Connection,
        message: `The server rejected the credentials (${error.message}); check --token, or log in: mcp-tasks-polling-client login <url>`,
      };
    return { code: ExitCode.Failed, message: `The server answered with error ${error.code}: ${error.message}` };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: ExitCode.Failed, message: `Unexpected error: ${message}` };
}

/** One line per OAuth failure, with what to do about it. */
function oauthMessage(error: OAuthFlowError): string {
  switch (error.code) {
    case 'consent_denied':
      return `Login refused: ${error.message}`;
    case 'refresh_expired':
      return `The login has expired and the authorization server refused to renew it (${error.message}); log in again with "mcp-tasks-polling-client login <url>"`;
    case 'issuer_mismatch':
      return `Wrong issuer: ${error.message}; the server names an authorization server that does not identify as itself, so no token was sent`;
    default:
      return `Authorization failed (${error.code}): ${error.message}`;
  }
}

/**
 * With `--json`, a failure is the one JSON document on stdout: `{"error":{"message","exitCode"}}` (the same line
 * also goes to stderr as `error: …`).
 */
export function writeJsonFailure(failure: Failure): void {
  process.stdout.write(`${JSON.stringify({ error: { message: failure.message, exitCode: failure.code } })}\n`);
}

function transportMessage(error: TransportError): string {
  const cause = error.cause instanceof Error ? ` (${causeText(error.cause)})` : '';
  switch (error.code) {
    case 'http_status':
      return httpStatusMessage(error);
    case 'send_failed':
      return `Cannot reach the server: ${error.message}${cause}`;
    case 'closed':
      return `Lost the connection to the server: ${error.message}${cause}`;
    default:
      return `Transport error (${error.code}): ${error.message}${cause}`;
  }
}

/** One line for an HTTP status, with what to do about it; the status is said once. */
function httpStatusMessage(error: TransportError): string {
  const status = error.status;
  if (status === 401 || status === 403)
    return `The server rejected the credentials (HTTP ${status}); check --token, or log in: mcp-tasks-polling-client login <url>`;
  if (/WebSocket upgrade/.test(error.message))
    return `${error.message}; is this a WebSocket endpoint? (a Streamable HTTP server takes an http:// URL)`;
  if (status === 426) return 'The server wants a WebSocket (HTTP 426 Upgrade Required): use a ws:// URL';
  // The transport's own message may already start with "HTTP <status>"; say the status once.
  const rest = error.message.replace(/^HTTP \d{3}\b:?\s*/, '');
  const hint = status === 404 ? '; check the path of --url (usually …/mcp)' : '';
  return `The server answered HTTP ${status ?? '?'}${rest === '' ? '' : ` ${rest}`}${hint}`;
}

function causeText(cause: Error): string {
  // fetch wraps the socket error (ECONNREFUSED, ECONNRESET…) one level further down.
  const inner = cause.cause instanceof Error ? cause.cause.message : undefined;
  return inner ?? cause.message;
}

/** The first error of type `type` in `error`'s cause chain (including itself). */
function causedBy(error: unknown, type: abstract new (...args: never[]) => Error): Error | undefined {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    if (current instanceof type) return current;
    current = (current as Error).cause;
  }
  return undefined;
}
