import { ErrorCode, type Error as ErrorObject, isProtocolError, ProtocolError } from '@mcp-tasks/protocol';
import type { z } from 'zod';

/** `-32602` with an informative message. */
export function invalidParams(message: string, data?: unknown): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, message, data);
}

/** `-32601` naming the method. */
export function methodNotFound(method: string): ProtocolError {
  return new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
}

/** `-32021` listing exactly the capabilities the request lacked. */
export function missingCapability(requiredCapabilities: Record<string, unknown>, message?: string): ProtocolError {
  return ProtocolError.missingRequiredClientCapability(requiredCapabilities, message);
}

/** Turns zod issues into one readable line per issue, prefixed with the path (`arguments.seconds: expected number`). */
export function formatZodError(error: z.ZodError, root?: string): string {
  return error.issues
    .map((issue) => {
      const path = [root, ...issue.path.map(String)].filter((part) => part !== undefined && part !== '').join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/**
 * Maps anything thrown inside the runtime to a wire error. A {@link ProtocolError} keeps its code, message and
 * data; anything else becomes `-32603` with a generic message so internals never leak (the cause goes to
 * `report`).
 */
export function toWireError(error: unknown, report: (error: unknown) => void): ErrorObject {
  if (isProtocolError(error)) return error.toJSON();
  report(error);
  return { code: ErrorCode.InternalError, message: 'Internal error' };
}

/**
 * Where a request's failure is reported: nowhere once its signal aborted (the client cancelled it, went away, or its
 * session ended), since ending with that abort is expected and its answer is not written; `report` otherwise.
 */
export function reportUnlessCancelled(
  context: { readonly signal: AbortSignal },
  report: (error: unknown) => void,
): (error: unknown) => void {
  return context.signal.aborted ? ignoreError : report;
}

function ignoreError(): void {}
