/**
 * @mcp-tasks/transport-http/fetch: the Streamable HTTP server endpoint on the fetch API (`Request` → `Response`) for
 * Node, Bun, Deno, Cloudflare Workers and Hono. Runtime-neutral, no `node:` imports.
 *
 * @module @mcp-tasks/transport-http/fetch
 */

export type { HeaderLookup } from './checkParamHeaders.js';
export {
  createFetchHandler,
  type FetchHandler,
  type FetchHandlerOptions,
} from './createFetchHandler.js';
export { HTTP_SESSION_DEFAULTS, type HttpSessionOptions } from './era-2025/index.js';
export type {
  AuthenticateRequest,
  AuthenticationRefusal,
  AuthenticationResult,
  HttpBindingOptions,
  OriginGuardOptions,
} from './httpBinding.js';
export { httpStatusForError } from './httpStatus.js';
export { mcpNameField } from './routingHeaders.js';
export type { AuthenticatedPrincipal, RequiredScopesLookup, ScopeChallenge } from './scopeCheck.js';
export { type ParamHeaderLookup, validateRequestHeaders } from './validateRequestHeaders.js';
