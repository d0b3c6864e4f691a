/**
 * The 2025-11-25 era of the Streamable HTTP transport: sessions (`Mcp-Session-Id`, `initialize`), the session's
 * GET stream and its resumption (`Last-Event-ID`), and server-to-client requests. This file is the only way into the
 * folder: `httpBinding.ts` (server side) and `httpClientTransport.ts` (client side) compose it, and the package's
 * entry files re-export its public names. Deleting the folder and those imports removes the 2025 era.
 */
export { HTTP_SESSION_DEFAULTS, type HttpSessionOptions, HttpSessions } from './httpSessions.js';
export { LegacySession } from './legacySession.js';
export type { HttpReconnectOptions } from './reconnectPolicy.js';
export { SessionRouter } from './sessionRouter.js';
