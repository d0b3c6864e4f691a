/** The protocol version a 2025-era client negotiates (the newest the official SDK v1 speaks). */
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

const LEGACY_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A 2025-era `tools/call` of `greet`: no per-request `_meta`, the session carries what the client declared. */
export function legacyGreetCall(id = 1, name = 'bench') {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'greet', arguments: { name } } };
}

/** The headers of a 2025-era request, in session `sessionId` when given (stateless SDK v1 servers take none). */
export function legacyHeaders(sessionId) {
  const headers = { ...LEGACY_HEADERS, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION };
  if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
  return headers;
}

/** The 2025-era `initialize` a benchmark client opens its session with. */
export function legacyInitialize(id = 0) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: LEGACY_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'mcp-tasks-bench', version: '0.0.0' },
    },
  };
}

/**
 * Opens a 2025-era session at `url` as a client does once: `initialize`, then `notifications/initialized`.
 * Resolves with the headers every later request of the session carries.
 */
export async function openLegacySession(url) {
  const initialize = legacyInitialize();
  const response = await fetch(url, { method: 'POST', headers: LEGACY_HEADERS, body: JSON.stringify(initialize) });
  const text = await response.text();
  const sessionId = response.headers.get('mcp-session-id');
  if (!response.ok || sessionId === null) throw new Error(`${url}: initialize gave no session: ${text}`);
  const headers = legacyHeaders(sessionId);
  const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
  const ack = await fetch(url, { method: 'POST', headers, body: JSON.stringify(initialized) });
  await ack.text();
  if (ack.status !== 202) throw new Error(`${url}: notifications/initialized answered ${ack.status}`);
  return headers;
}
