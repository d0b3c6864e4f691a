/**
 * @mcp-tasks/transport-http/client: the fetch-based client transport (both protocol eras) and its SSE reader.
 * Runtime-neutral, no `node:` imports.
 *
 * @module @mcp-tasks/transport-http/client
 */

export type { HttpReconnectOptions } from './era-2025/index.js';
export type { FetchLike, HeaderSource } from './httpChannel.js';
export { HttpClientTransport, type HttpClientTransportOptions } from './httpClientTransport.js';
export { readSseEvents } from './readSseEvents.js';
export { mcpNameField } from './routingHeaders.js';
