import { ErrorCode, isRecord } from '@mcp-tasks/protocol';

/**
 * The HTTP status for a JSON-RPC error response: 404 for an unknown method; 400 for parse errors, invalid
 * requests, invalid params, header mismatches, missing client capabilities and unsupported protocol versions; 500
 * for internal errors, but 503 for one whose `data.retryAfterSeconds` marks it transient (a task store that cannot
 * answer for a moment); 429 for too many live tasks (429 and 503 responses also carry `Retry-After`). Any other code
 * is an application-level error on a request the server did handle: 200.
 */
export function httpStatusForError(code: number, data?: unknown): number {
  switch (code) {
    case ErrorCode.MethodNotFound:
      return 404;
    case ErrorCode.ParseError:
    case ErrorCode.InvalidRequest:
    case ErrorCode.InvalidParams:
    case ErrorCode.HeaderMismatch:
    case ErrorCode.MissingRequiredClientCapability:
    case ErrorCode.UnsupportedProtocolVersion:
      return 400;
    case ErrorCode.TooManyTasks:
      return 429;
    case ErrorCode.InternalError:
      return isRecord(data) && data.retryAfterSeconds !== undefined ? 503 : 500;
    default:
      return 200;
  }
}
