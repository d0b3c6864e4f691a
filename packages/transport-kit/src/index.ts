/**
 * @mcp-tasks/transport-kit: the runtime-neutral plumbing every mcp-tasks transport shares (server sessions over a
 * message channel, client-side request correlation, the close signal, the Host/Origin check). No `node:` imports.
 *
 * @module @mcp-tasks/transport-kit
 */

export { CloseSignal } from './closeSignal.js';
export type { ConnectionLimits, ConnectionRefusal } from './connectionLimiter.js';
export { ConnectionLimiter } from './connectionLimiter.js';
export type { DecodedMessage, DecodeOptions } from './decodeMessage.js';
export {
  DEFAULT_MAX_DEPTH,
  decodeMessage,
  decodeUtf8,
  exceedsDepth,
  INVALID_JSON_ERROR,
  INVALID_UTF8_ERROR,
} from './decodeMessage.js';
// The 2025 era (a server's requests to its client, the connection as a session), from its own folder.
export type { ClientPeerDispatchOptions, ConnectionSessionOptions, OutboundRequestsOptions } from './era-2025/index.js';
export {
  ClientPeerDispatch,
  ConnectionSession,
  DEFAULT_MAX_PEER_REQUESTS,
  DEFAULT_MAX_SERVER_REQUESTS,
  DEFAULT_PEER_REQUEST_TIMEOUT_MS,
  isResponse,
  OutboundRequests,
} from './era-2025/index.js';
export type { OriginCheckInput, OriginPolicy } from './originPolicy.js';
export { checkOrigin, createOriginCheck, hasDuplicateHeader } from './originPolicy.js';
export type { PendingRequestsOptions } from './pendingRequests.js';
export { PendingRequests } from './pendingRequests.js';
export {
  type AuthenticatedPrincipal,
  findInsufficientScope,
  type InsufficientScope,
  type RequiredScopesLookup,
} from './scopeCheck.js';
export { ServerSession } from './serverSession.js';
export type { ServerSessionOptions } from './serverSessionOptions.js';
export { DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_LISTENS } from './serverSessionOptions.js';
