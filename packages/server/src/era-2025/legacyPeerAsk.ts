import type { OutboundRequest } from '@mcp-tasks/protocol';
import type { JsonObject } from '../jsonRpc.js';

/**
 * Sends one server-to-client request in the client's 2025-era session and resolves with the client's result
 * object; rejects when the client answers with an error, the session ends or `signal` aborts (the request is then
 * abandoned).
 */
export type LegacyPeerAsk = (request: OutboundRequest, signal: AbortSignal) => Promise<JsonObject>;
