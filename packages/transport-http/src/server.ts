/**
 * @mcp-tasks/transport-http/server: the Node server side: the fetch endpoint plus the `node:http` listener, the
 * express 5 middleware and `listen`, all applying the same binding rules.
 *
 * @module @mcp-tasks/transport-http/server
 */

export type { HeaderLookup } from './checkParamHeaders.js';
export {
  createFetchHandler,
  type FetchHandler,
  type FetchHandlerOptions,
} from './createFetchHandler.js';
export { createHttpHandler, type HttpHandler } from './createHttpHandler.js';
export { HTTP_SESSION_DEFAULTS, type HttpSessionOptions } from './era-2025/index.js';
export type {
  AuthenticateRequest,
  AuthenticationRefusal,
  AuthenticationResult,
  HttpBindingOptions,
  OriginGuardOptions,
} from './httpBinding.js';
export type { Authenticate, HttpHandlerOptions } from './httpHandlerOptions.js';
export { httpStatusForError } from './httpStatus.js';
export { type HttpServerHandle, type ListenOptions, listen } from './listen.js';
export type { AuthenticatedPrincipal, RequiredScopesLookup, ScopeChallenge } from './scopeCheck.js';
export { type ConnectionCaps, HTTP_LIMIT_DEFAULTS, type HttpServerLimits } from './serverLimits.js';
export { type ParamHeaderLookup, validateRequestHeaders } from './validateRequestHeaders.js';
