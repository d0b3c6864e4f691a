import { z } from 'zod';
import { type ClientCapabilities, ClientCapabilitiesSchema } from './capabilities.js';
import { type Error as ErrorObject, ErrorSchema, JSONRPCErrorResponseSchema } from './jsonrpc.js';

/**
 * JSON-RPC error codes used by MCP 2026-07-28: the five JSON-RPC 2.0 codes and the three 2026 protocol errors.
 * An `as const` object rather than an enum so it erases cleanly.
 */
export const ErrorCode = {
  /** Invalid JSON was received. */
  ParseError: -32700,
  /** The JSON is not a valid request object. */
  InvalidRequest: -32600,
  /** The method does not exist or is not available. */
  MethodNotFound: -32601,
  /** Invalid method parameters (also: an unknown task or resource). */
  InvalidParams: -32602,
  /** Internal error of the receiver. */
  InternalError: -32603,
  /** An HTTP routing header disagrees with the JSON-RPC body. */
  HeaderMismatch: -32020,
  /** The request needs a client capability (or extension) the client did not declare on it. */
  MissingRequiredClientCapability: -32021,
  /** The request's `_meta` protocol version is not one the server supports. */
  UnsupportedProtocolVersion: -32022,
  /**
   * This implementation's code (in the implementation-defined server error range) for "the principal has too many
   * live tasks": a client fault to back off from, never an internal error. `data.retryAfterSeconds` suggests a
   * delay; Streamable HTTP answers it with `429 Too Many Requests` and `Retry-After`.
   */
  TooManyTasks: -32029,
} as const;
/** One of the known error codes. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** `data` of a -32021 error: the capabilities the request needs (e.g. `{ extensions: { [id]: {} } }`). */
export const MissingRequiredClientCapabilityDataSchema = z.looseObject({
  /** The capabilities the request needs and the client did not declare. */
  requiredCapabilities: ClientCapabilitiesSchema,
});
/** `data` of a -32021 error. */
export type MissingRequiredClientCapabilityData = z.infer<typeof MissingRequiredClientCapabilityDataSchema>;

/** `data` of a -32022 error: the versions the server supports and the one the client asked for. */
export const UnsupportedProtocolVersionDataSchema = z.looseObject({
  /** The protocol versions the server supports. */
  supported: z.array(z.string()),
  /** The version the client asked for. */
  requested: z.string(),
});
/** `data` of a -32022 error. */
export type UnsupportedProtocolVersionData = z.infer<typeof UnsupportedProtocolVersionDataSchema>;

/** Error response -32020: an HTTP routing header disagrees with the body. */
export const HeaderMismatchErrorSchema = JSONRPCErrorResponseSchema.extend({
  /** The error object. */
  error: ErrorSchema.extend({
    /** Always -32020. */
    code: z.literal(-32020),
  }),
});
/** Error response -32020. */
export type HeaderMismatchError = z.infer<typeof HeaderMismatchErrorSchema>;

/** Error response -32021, with the required `data.requiredCapabilities`. */
export const MissingRequiredClientCapabilityErrorSchema = JSONRPCErrorResponseSchema.extend({
  /** The error object. */
  error: ErrorSchema.extend({
    /** Always -32021. */
    code: z.literal(-32021),
    /** The capabilities the request needs. */
    data: MissingRequiredClientCapabilityDataSchema,
  }),
});
/** Error response -32021. */
export type MissingRequiredClientCapabilityError = z.infer<typeof MissingRequiredClientCapabilityErrorSchema>;

/** Error response -32022, with the required `data.supported` and `data.requested`. */
export const UnsupportedProtocolVersionErrorSchema = JSONRPCErrorResponseSchema.extend({
  /** The error object. */
  error: ErrorSchema.extend({
    /** Always -32022. */
    code: z.literal(-32022),
    /** The supported versions and the requested one. */
    data: UnsupportedProtocolVersionDataSchema,
  }),
});
/** Error response -32022. */
export type UnsupportedProtocolVersionError = z.infer<typeof UnsupportedProtocolVersionErrorSchema>;

/**
 * The one error that crosses the wire: a JSON-RPC error with `code`, `message` and optional `data`.
 * `JSON.stringify(err)` and {@link ProtocolError.toJSON} give the JSON-RPC error object (never the stack or cause).
 * Local failures that never reach the wire use `TransportError` instead.
 */
export class ProtocolError<TData = unknown> extends Error {
  /** Always `'ProtocolError'`. */
  override readonly name = 'ProtocolError';
  /** The JSON-RPC error code (see {@link ErrorCode}); any integer is allowed. */
  readonly code: number;
  /** The error's `data` member; undefined when absent. */
  readonly data: TData;

  /** Creates the error; `options.cause` is kept as the standard `cause` (never serialized). */
  constructor(code: number, message: string, data?: TData, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.data = data as TData;
  }

  /** The JSON-RPC error object; `data` is present only when defined. */
  toJSON(): ErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  /** -32021: the request needs capabilities (e.g. `{ extensions: { [TASKS_EXTENSION_ID]: {} } }`) it did not declare. */
  static missingRequiredClientCapability(
    requiredCapabilities: ClientCapabilities,
    message = 'Missing required client capability',
  ): ProtocolError<MissingRequiredClientCapabilityData> {
    return new ProtocolError(ErrorCode.MissingRequiredClientCapability, message, { requiredCapabilities });
  }

  /** -32022: `requested` is not a version this server speaks; `supported` lists the ones it does. */
  static unsupportedProtocolVersion(
    supported: readonly string[],
    requested: string,
    message = `Unsupported protocol version: ${requested}`,
  ): ProtocolError<UnsupportedProtocolVersionData> {
    return new ProtocolError(ErrorCode.UnsupportedProtocolVersion, message, { supported: [...supported], requested });
  }

  /** -32020: an HTTP routing header (e.g. `Mcp-Method`, `Mcp-Name`) disagrees with the body. */
  static headerMismatch(message: string): ProtocolError<undefined> {
    return new ProtocolError(ErrorCode.HeaderMismatch, message);
  }

  /** Rebuilds a ProtocolError from a wire error object (e.g. the `error` of a response, or a failed task's `error`). */
  static fromError(error: ErrorObject): ProtocolError {
    return new ProtocolError(error.code, error.message, error.data);
  }
}

/** True when `value` is a {@link ProtocolError}. Reliable because workspace packages are never bundled twice. */
export function isProtocolError(value: unknown): value is ProtocolError {
  return value instanceof ProtocolError;
}
