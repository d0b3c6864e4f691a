/** The WebSocket subprotocol of this binding: offered by the client, selected by the server. */
export const MCP_SUBPROTOCOL = 'mcp';

/**
 * Prefix of the subprotocol entry that carries a bearer token from browsers, which cannot set headers:
 * `new WebSocket(url, ['mcp', 'mcp.bearer.' + token])`. The token must consist of subprotocol-safe characters
 * (base64url and JWTs are); the server never selects this entry.
 */
export const BEARER_SUBPROTOCOL_PREFIX = 'mcp.bearer.';

/** The bearer token of an upgrade: the `Authorization: Bearer` header wins over a subprotocol entry. */
export function tokenFromUpgrade(authorization: string | undefined, protocols: readonly string[]): string | undefined {
  const match = authorization === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (match?.[1] !== undefined) return match[1];
  const entry = protocols.find((p) => p.startsWith(BEARER_SUBPROTOCOL_PREFIX));
  return entry === undefined ? undefined : entry.slice(BEARER_SUBPROTOCOL_PREFIX.length) || undefined;
}
