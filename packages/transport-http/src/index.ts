/**
 * @mcp-tasks/transport-http: Streamable HTTP for MCP 2026-07-28, server and client, in one import. It pulls in
 * `node:http`; Workers and browsers import `@mcp-tasks/transport-http/fetch` or `@mcp-tasks/transport-http/client`.
 *
 * @module @mcp-tasks/transport-http
 */

export type { HeaderLookup } from './checkParamHeaders.js';
export {
  createFetchHandler,
  type FetchHandler,
  type FetchHandlerOptions,
} from './createFetchHandler.js';
export { createHttpHandler, type HttpHandler } from './createHttpHandler.js';
export type { HttpReconnectOptions } from './era-2025/index.js';
export { HTTP_SESSION_DEFAULTS, type HttpSessionOptions } from './era-2025/index.js';
export type {
  AuthenticateRequest,
  AuthenticationRefusal,
  AuthenticationResult,
  HttpBindingOptions,
  OriginGuardOptions,
} from './httpBinding.js';
export type { FetchLike, HeaderSource } from './httpChannel.js';
export { HttpClientTransport, type HttpClientTransportOptions } from './httpClientTransport.js';
export type { Authenticate, HttpHandlerOptions } from './httpHandlerOptions.js';
export { httpStatusForError } from './httpStatus.js';
export { type HttpServerHandle, type ListenOptions, listen } from './listen.js';
export { type NodeHttpFetch, type NodeHttpFetchOptions, nodeHttpFetch } from './nodeHttpFetch.js';
export { readSseEvents } from './readSseEvents.js';
export { mcpNameField } from './routingHeaders.js';
export type { AuthenticatedPrincipal, RequiredScopesLookup, ScopeChallenge } from './scopeCheck.js';
export { type ConnectionCaps, HTTP_LIMIT_DEFAULTS, type HttpServerLimits } from './serverLimits.js';
export { type ParamHeaderLookup, validateRequestHeaders } from './validateRequestHeaders.js';
