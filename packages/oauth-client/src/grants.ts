import * as oauth from 'oauth4webapi';
import { requireNonce } from './dpop.js';
import { OAuthFlowError } from './errors.js';
import type { FetchLike } from './http.js';
import type { StoredClient, StoredTokens } from './tokenStore.js';

/** What every token-endpoint request shares: the server, the registration and how to reach them. */
export interface GrantContext {
  readonly as: oauth.AuthorizationServer;
  readonly client: StoredClient;
  readonly auth: oauth.ClientAuth;
  readonly fetchFn: FetchLike;
  /** Plain http allowed (loopback development servers only). */
  readonly insecure: boolean;
  readonly dpop?: oauth.DPoPHandle | undefined;
}

/** The oauth4webapi request options for a context, with the RFC 8707 `resource` and extra parameters. */
export function requestOptions(
  context: GrantContext,
  parameters: Record<string, string>,
): oauth.TokenEndpointRequestOptions {
  return {
    additionalParameters: parameters,
    [oauth.customFetch]: (url, init) => context.fetchFn(url, init as RequestInit),
    [oauth.allowInsecureRequests]: context.insecure,
    ...(context.dpop === undefined ? {} : { DPoP: context.dpop }),
  };
}

/** The oauth4webapi view of a registration. */
export function asClient(client: StoredClient): oauth.Client {
  return { client_id: client.clientId };
}

/** Turns a token endpoint response into what the store keeps. */
export function toStored(
  response: oauth.TokenEndpointResponse,
  issuer: string,
  previousRefresh?: string,
): StoredTokens {
  return {
    accessToken: response.access_token,
    tokenType: response.token_type,
    // A refresh response may omit the refresh token, meaning the old one stays valid (RFC 6749 section 6).
    refreshToken: response.refresh_token ?? previousRefresh,
    expiresAt: response.expires_in === undefined ? undefined : Date.now() + response.expires_in * 1000,
    scope: response.scope,
    issuer,
  };
}

/** Exchanges a refresh token; an `invalid_grant` answer means the person must log in again. */
export async function refreshTokens(
  context: GrantContext,
  tokens: StoredTokens,
  resource: string,
): Promise<StoredTokens> {
  const refreshToken = tokens.refreshToken;
  if (refreshToken === undefined) throw new OAuthFlowError('refresh_expired', 'No refresh token; log in again');
  const client = asClient(context.client);
  try {
    const response = await withNonceRetry(context, () =>
      oauth.refreshTokenGrantRequest(
        context.as,
        client,
        context.auth,
        refreshToken,
        requestOptions(context, { resource }),
      ),
    );
    const result = await oauth.processRefreshTokenResponse(context.as, client, response);
    return toStored(result, context.as.issuer, refreshToken);
  } catch (cause) {
    if (cause instanceof oauth.ResponseBodyError && cause.error === 'invalid_grant') {
      throw new OAuthFlowError(
        'refresh_expired',
        `The refresh token was refused by ${context.as.issuer}; log in again`,
        {
          cause,
        },
      );
    }
    throw tokenError(context, cause);
  }
}

/**
 * Runs a token request, once more when a DPoP server asks for a nonce (RFC 9449 section 8); the handle has kept the
 * nonce the answer carried, and a missing or malformed one is an error rather than a second refusal.
 */
export async function withNonceRetry(context: GrantContext, send: () => Promise<Response>): Promise<Response> {
  const first = await send();
  if (context.dpop === undefined || first.status !== 400) return first;
  const body = await first
    .clone()
    .json()
    .catch(() => undefined);
  if ((body as { error?: unknown } | undefined)?.error !== 'use_dpop_nonce') return first;
  await first.body?.cancel();
  requireNonce(first, `The token endpoint of ${context.as.issuer}`);
  return send();
}

/** Wraps an oauth4webapi failure at the token endpoint into a readable error. */
export function tokenError(context: GrantContext, cause: unknown): OAuthFlowError {
  if (cause instanceof OAuthFlowError) return cause;
  return new OAuthFlowError(
    'token',
    `The token endpoint of ${context.as.issuer} refused the request (${describeCause(cause)})`,
    { cause },
  );
}

/** The server's `error: error_description`, or the library's message. */
export function describeCause(cause: unknown): string {
  if (cause instanceof oauth.ResponseBodyError) {
    return `${cause.error}${cause.error_description ? `: ${cause.error_description}` : ''}`;
  }
  return cause instanceof Error ? cause.message : String(cause);
}
