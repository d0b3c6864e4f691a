import { z } from 'zod';
import { ClientCapabilitiesSchema } from './capabilities.js';
import { ImplementationSchema } from './implementation.js';
import { RequestIdSchema } from './jsonrpc.js';

/** The protocol revision this package implements. */
export const LATEST_PROTOCOL_VERSION = '2026-07-28' as const;

/** Every protocol revision this package can serve, newest first (sent as `data.supported` on -32022). */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([LATEST_PROTOCOL_VERSION]);

/**
 * The `_meta` keys of MCP 2026-07-28. Requests carry protocol version, client capabilities, client info, log level
 * and progress token; results carry server info; listen results and notifications carry the subscription id.
 */
export const META = {
  /** The protocol version the request is made under (required on every request). */
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  /** The client's capabilities (required on every request). */
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  /** The client's name and version. */
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  /** The lowest log level the client wants in `notifications/message` for this request. */
  logLevel: 'io.modelcontextprotocol/logLevel',
  /** The server's name and version, on results. */
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  /** The id of the `subscriptions/listen` request a notification belongs to. */
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  /** The token `notifications/progress` refer to this request by. */
  progressToken: 'progressToken',
} as const;

/** A progress token: a string or an integer chosen by the client. */
export const ProgressTokenSchema = z.union([z.string(), z.int()]);
/** A progress token. */
export type ProgressToken = z.infer<typeof ProgressTokenSchema>;

/** Syslog severities, lowest first is `debug`. */
export const LoggingLevelSchema = z.enum([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]);
/** A log severity. */
export type LoggingLevel = z.infer<typeof LoggingLevelSchema>;

/**
 * The per-request `_meta`: every request is self-describing (no session), so protocol version and client
 * capabilities are required on each one. Other keys pass through.
 */
export const RequestMetaObjectSchema = z.looseObject({
  /** The protocol version the request is made under. */
  [META.protocolVersion]: z.string(),
  /** The client's capabilities for this request. */
  [META.clientCapabilities]: ClientCapabilitiesSchema,
  /** The client's name and version. */
  [META.clientInfo]: ImplementationSchema.optional(),
  /** The lowest log level the client wants for this request. */
  [META.logLevel]: LoggingLevelSchema.optional(),
  /** Set to receive `notifications/progress` for this request. */
  [META.progressToken]: ProgressTokenSchema.optional(),
});
/** The per-request `_meta`. */
export type RequestMetaObject = z.infer<typeof RequestMetaObjectSchema>;

/** The `_meta` of a result: optionally names the server. */
export const ResultMetaObjectSchema = z.looseObject({
  /** The server's name and version. */
  [META.serverInfo]: ImplementationSchema.optional(),
});
/** The `_meta` of a result. */
export type ResultMetaObject = z.infer<typeof ResultMetaObjectSchema>;

/** The `_meta` of a notification: on a listen stream it names the subscription. */
export const NotificationMetaObjectSchema = z.looseObject({
  /** The id of the `subscriptions/listen` request the notification belongs to. */
  [META.subscriptionId]: RequestIdSchema.optional(),
});
/** The `_meta` of a notification. */
export type NotificationMetaObject = z.infer<typeof NotificationMetaObjectSchema>;

/** Params every client request carries: at least the per-request `_meta`. */
export const RequestParamsSchema = z.looseObject({
  /** The per-request `_meta`: protocol version and client capabilities at least. */
  _meta: RequestMetaObjectSchema,
});
/** Params every client request carries. */
export type RequestParams = z.infer<typeof RequestParamsSchema>;

/** Params of a notification: an optional `_meta`. */
export const NotificationParamsSchema = z.looseObject({
  /** Reserved metadata; names the subscription on a listen stream. */
  _meta: NotificationMetaObjectSchema.optional(),
});
/** Params of a notification. */
export type NotificationParams = z.infer<typeof NotificationParamsSchema>;

/**
 * How a client tells result shapes apart: `"complete"` (the method's normal result), `"input_required"` (MRTR) and,
 * with the Tasks extension, `"task"` (a CreateTaskResult). Other strings are allowed for future extensions.
 */
export const ResultTypeSchema = z.string();
/** A result discriminator. Known values autocomplete; any string is allowed. */
export type ResultType = 'complete' | 'input_required' | 'task' | (string & {});

/** Fields common to every result. Extra keys pass through. */
export const ResultSchema = z.looseObject({
  /** Reserved metadata; may name the server. */
  _meta: ResultMetaObjectSchema.optional(),
  /** How to read the result: `complete`, `input_required` or (Tasks extension) `task`. */
  resultType: ResultTypeSchema,
});
/** Fields common to every result. */
export type Result = z.infer<typeof ResultSchema>;

/** An empty acknowledgement result (`resultType: "complete"` and nothing else required). */
export const EmptyResultSchema = ResultSchema;
/** An empty acknowledgement result. */
export type EmptyResult = Result;
