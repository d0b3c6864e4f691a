import {
  ErrorCode,
  jsonRpcError,
  type MessageHandler,
  type RequestContext,
  type TransportRequestId,
  type TransportResponse,
} from '@mcp-tasks/protocol';

/**
 * Hands one message to the runtime and resolves with what to write back; never rejects. A runtime that throws,
 * rejects, or answers a request (`id` defined) with nothing is answered -32603.
 */
export function runHandler(
  handle: MessageHandler,
  message: unknown,
  context: RequestContext,
  id: TransportRequestId | undefined,
): Promise<TransportResponse | undefined> {
  const internalError = (): TransportResponse =>
    jsonRpcError(id, { code: ErrorCode.InternalError, message: 'Internal error' });
  let answer: Promise<TransportResponse | undefined>;
  try {
    answer = handle(message, context);
  } catch {
    return Promise.resolve(internalError());
  }
  return answer.then(
    // A request must be answered; undefined is only for notifications.
    (response) => (response === undefined && id !== undefined ? internalError() : response),
    internalError,
  );
}
