import type { IncomingMessage } from 'node:http';
import type { AuthenticatedPrincipal } from '@mcp-tasks/transport-kit';
import { tokenFromUpgrade } from './subprotocol.js';

/**
 * How an `authenticate` hook refuses an upgrade with a challenge of its own, e.g. `Bearer error="invalid_token"` for
 * a presented token that was refused (RFC 6750 section 3.1); the upgrade is answered 401 with it.
 */
export interface WebSocketAuthRefusal {
  /** The `WWW-Authenticate` value of the 401. */
  readonly challenge: string;
}

/**
 * What a {@link WebSocketAuthenticate} hook answers: a principal, a principal with its token's scopes (tools'
 * required scopes are then checked on every `tools/call` of the socket), a refusal with its own challenge, `null`
 * (refused with the configured `wwwAuthenticate`), or `undefined` (an anonymous connection).
 */
export type WebSocketAuthenticationResult = string | AuthenticatedPrincipal | WebSocketAuthRefusal | null | undefined;

/**
 * Turns the upgrade request into the principal tasks are bound to. `token` is the bearer token from the
 * `Authorization` header or, for browsers, from the `mcp.bearer.<token>` subprotocol entry. The same shape as the
 * HTTP transports' hook, so `bearerAuthenticate` of `@mcp-tasks/oauth-resource-server` fits both; see
 * {@link WebSocketAuthenticationResult}. A hook that throws (or rejects) refuses the upgrade with 401 too.
 */
export type WebSocketAuthenticate = (
  request: IncomingMessage,
  token: string | undefined,
) => WebSocketAuthenticationResult | Promise<WebSocketAuthenticationResult>;

/** Who an accepted socket belongs to, and its token's scopes (undefined: not known, so not checked). */
export interface AcceptedUpgrade {
  readonly principal: string | undefined;
  readonly scopes: readonly string[] | undefined;
}

/** Who the socket belongs to, or the challenge of the 401 that refuses it. */
export type UpgradeIdentity = AcceptedUpgrade | { readonly refused: string };

/** Runs the hook on an upgrade; `challenge` is the configured `WWW-Authenticate` of a refusal without its own. */
export async function authenticateUpgrade(
  authenticate: WebSocketAuthenticate | undefined,
  request: IncomingMessage,
  offered: readonly string[],
  challenge: string,
): Promise<UpgradeIdentity> {
  if (authenticate === undefined) return { principal: undefined, scopes: undefined };
  let result: WebSocketAuthenticationResult;
  try {
    result = await authenticate(request, tokenFromUpgrade(request.headers.authorization, offered));
  } catch {
    return { refused: challenge };
  }
  if (result === undefined) return { principal: undefined, scopes: undefined };
  if (result === null) return { refused: challenge };
  if (typeof result === 'string') return { principal: result, scopes: undefined };
  if ('challenge' in result) return { refused: result.challenge };
  return { principal: result.principal, scopes: result.scopes };
}
