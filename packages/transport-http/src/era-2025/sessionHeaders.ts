/** `Mcp-Session-Id` and `MCP-Protocol-Version` once `initialize` established them; never a 2026 header. */
export function sessionHeaders(id: string | undefined, version: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (id !== undefined) headers['mcp-session-id'] = id;
  if (version !== undefined) headers['mcp-protocol-version'] = version;
  return headers;
}

/** The headers of a POST in the session. */
export function postHeaders(id: string | undefined, version: string | undefined): Record<string, string> {
  // A fresh object each call: adding to it is cheaper than a spread followed by more properties.
  const headers = sessionHeaders(id, version);
  headers.accept = 'application/json, text/event-stream';
  headers['content-type'] = 'application/json';
  return headers;
}

/** The headers of the session's GET stream, resuming after `lastEventId` when given. */
export function getHeaders(
  id: string | undefined,
  version: string | undefined,
  lastEventId: string | undefined,
): Record<string, string> {
  const headers = sessionHeaders(id, version);
  headers.accept = 'text/event-stream';
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  return headers;
}
