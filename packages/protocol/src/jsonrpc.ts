import { z } from 'zod';

/** The only JSON-RPC version MCP speaks. */
export const JSONRPC_VERSION = '2.0' as const;

/** A JSON-RPC request id: a string or an integer. Never null on a request. */
export const RequestIdSchema = z.union([z.string(), z.int()]);
/** A JSON-RPC request id. */
export type RequestId = z.infer<typeof RequestIdSchema>;

/** Request / notification params: any JSON object. Method schemas narrow it. */
const ParamsSchema = z.record(z.string(), z.unknown());

/** A JSON-RPC 2.0 request: has an `id` and expects exactly one response. Extra keys pass through. */
export const JSONRPCRequestSchema = z.looseObject({
  /** Always `2.0`. */
  jsonrpc: z.literal(JSONRPC_VERSION),
  /** The request id, echoed by the response. */
  id: RequestIdSchema,
  /** The method to invoke. */
  method: z.string(),
  /** The method's parameters. */
  params: ParamsSchema.optional(),
});
/** A JSON-RPC 2.0 request. */
export type JSONRPCRequest = z.infer<typeof JSONRPCRequestSchema>;

/** A JSON-RPC 2.0 notification: no `id`, no response. A message carrying `id` is a request, never a notification. */
export const JSONRPCNotificationSchema = z.looseObject({
  /** Always `2.0`. */
  jsonrpc: z.literal(JSONRPC_VERSION),
  /** The notification's method. */
  method: z.string(),
  /** The notification's parameters. */
  params: ParamsSchema.optional(),
  /** Never present: a notification has no id and gets no response. */
  id: z.never().optional(),
});
/** A JSON-RPC 2.0 notification. */
export type JSONRPCNotification = z.infer<typeof JSONRPCNotificationSchema>;

/** The JSON-RPC error object: integer `code`, human-readable `message`, optional `data`. */
export const ErrorSchema = z.looseObject({
  /** The error code (see `ErrorCode`). */
  code: z.int(),
  /** A short description of the error. */
  message: z.string(),
  /** Additional information, defined by the code. */
  data: z.unknown().optional(),
});
/** The JSON-RPC error object. */
export type Error = z.infer<typeof ErrorSchema>;

/**
 * A successful JSON-RPC response. `result` is any object here; method schemas narrow it (see each
 * `*ResultResponseSchema`). JSON-RPC forbids `error` next to `result`, so that is rejected.
 */
export const JSONRPCResultResponseSchema = z.looseObject({
  /** Always `2.0`. */
  jsonrpc: z.literal(JSONRPC_VERSION),
  /** The id of the request answered. */
  id: RequestIdSchema,
  /** The method's result. */
  result: z.record(z.string(), z.unknown()),
  /** Never present on a result response. */
  error: z.never().optional(),
});
/** A successful JSON-RPC response. */
export type JSONRPCResultResponse = z.infer<typeof JSONRPCResultResponseSchema>;

/**
 * A JSON-RPC error response. MCP omits `id` when the request id could not be read; a `null` id (what plain JSON-RPC
 * 2.0 peers send in that case) is accepted on input, but builders here never produce it.
 */
export const JSONRPCErrorResponseSchema = z.looseObject({
  /** Always `2.0`. */
  jsonrpc: z.literal(JSONRPC_VERSION),
  /** The id of the request answered; absent (or null) when the request could not be read. */
  id: RequestIdSchema.nullable().optional(),
  /** The error. */
  error: ErrorSchema,
  /** Never present on an error response. */
  result: z.never().optional(),
});
/** A JSON-RPC error response. */
export type JSONRPCErrorResponse = z.infer<typeof JSONRPCErrorResponseSchema>;

/** Either kind of JSON-RPC response. */
export const JSONRPCResponseSchema = z.union([JSONRPCResultResponseSchema, JSONRPCErrorResponseSchema]);
/** Either kind of JSON-RPC response. */
export type JSONRPCResponse = z.infer<typeof JSONRPCResponseSchema>;

/** Any JSON-RPC 2.0 message. Order matters: a request is tried before a notification. */
export const JSONRPCMessageSchema = z.union([
  JSONRPCRequestSchema,
  JSONRPCNotificationSchema,
  JSONRPCResultResponseSchema,
  JSONRPCErrorResponseSchema,
]);
/** Any JSON-RPC 2.0 message. */
export type JSONRPCMessage = z.infer<typeof JSONRPCMessageSchema>;

/**
 * Builds the result response for request `id`. `result` is put on the wire as given (not copied), so a frozen,
 * shared result is fine.
 */
export function jsonRpcResult<R extends { readonly [key: string]: unknown }>(
  id: RequestId,
  result: R,
): {
  /** Always `2.0`. */
  readonly jsonrpc: '2.0';
  /** The id of the request answered. */
  readonly id: RequestId;
  /** The result, as given. */
  readonly result: R;
} {
  return { jsonrpc: JSONRPC_VERSION, id, result };
}

/**
 * Builds an error response: the one place every package makes one. `id` is omitted when undefined or null (the
 * request id could not be read), as the 2026-07-28 schema requires; `data` is omitted when undefined. `error` may
 * be a {@link ProtocolError}; it is serialized through its `toJSON()`.
 */
export function jsonRpcError(
  id: RequestId | null | undefined,
  error: Error | { toJSON(): Error },
): {
  /** Always `2.0`. */
  readonly jsonrpc: '2.0';
  /** The id of the request answered; absent when it could not be read. */
  readonly id?: RequestId;
  /** The JSON-RPC error object. */
  readonly error: Error;
} {
  const given = 'toJSON' in error && typeof error.toJSON === 'function' ? error.toJSON() : (error as Error);
  const wire: Error =
    given.data === undefined && 'data' in given ? { code: given.code, message: given.message } : given;
  return id === null || id === undefined
    ? { jsonrpc: JSONRPC_VERSION, error: wire }
    : { jsonrpc: JSONRPC_VERSION, id, error: wire };
}
