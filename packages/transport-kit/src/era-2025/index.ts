/**
 * The 2025 era of transport-kit (MCP 2025-03-26, 2025-06-18, 2025-11-25): a connection as the 2025-era session, the
 * requests a server sends its client, and the client side that answers them. 2026-07-28 has no server-to-client
 * requests, so the core needs none of this; only the composition files (`serverSession.ts`, `index.ts`, and the
 * in-process pair in `testing/linkedClient.ts`) import this folder, through this file.
 */

export type { ClientPeerDispatchOptions } from './clientPeerDispatch.js';
export { ClientPeerDispatch, DEFAULT_MAX_SERVER_REQUESTS } from './clientPeerDispatch.js';
export type { ConnectionSessionOptions } from './connectionSession.js';
export { ConnectionSession } from './connectionSession.js';
export type { OutboundRequestsOptions } from './outboundRequests.js';
export {
  DEFAULT_MAX_PEER_REQUESTS,
  DEFAULT_PEER_REQUEST_TIMEOUT_MS,
  isResponse,
  OutboundRequests,
} from './outboundRequests.js';
