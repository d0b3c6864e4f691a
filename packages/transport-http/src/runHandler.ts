import {
  ErrorCode,
  jsonRpcError,
  type MessageHandler,
  type RequestContext,
  type TransportRequestId,
  type TransportResponse,
} from '@mcp-tasks/protocol';

/**
 * Hands one message to the runtime and calls `deliver` once with what to write back; never throws. A runtime that
 * throws, rejects, or answers a request (`id` defined) with nothing is answered -32603. A callback rather than a
 * returned promise: every request paid for a second promise and microtask turn only to reach its writer.
 */
export function runHandler(
  handle: MessageHandler,
  message: unknown,
  context: RequestContext,
  id: TransportRequestId | undefined,
  deliver: (response: TransportResponse | undefined) => void,
): void {
  let answer: Promise<TransportResponse | undefined>;
  try {
    answer = handle(message, context);
  } catch {
    // Still asynchronous, as an answer from the runtime would be: the front returns its exchange first.
    queueMicrotask(() => deliver(internalError(id)));
    return;
  }
  answer.then(
    // A request must be answered; undefined is only for notifications.
    (response) => deliver(response === undefined && id !== undefined ? internalError(id) : response),
    () => deliver(internalError(id)),
  );
}

function internalError(id: TransportRequestId | undefined): TransportResponse {
  return jsonRpcError(id, { code: ErrorCode.InternalError, message: 'Internal error' });
}
