import * as oauth from 'oauth4webapi';
import { OAuthFlowError } from './errors.js';
import { asClient, type GrantContext, requestOptions, tokenError, toStored, withNonceRetry } from './grants.js';
import type { StoredTokens } from './tokenStore.js';

/**
 * Shows `authorizationUrl` to a person (browser, printed link…) and resolves with the URL the authorization server
 * redirected back to (the redirect URI with `code`, `state`, maybe `iss`, or `error`).
 */
export type AuthorizationRedirect = (authorizationUrl: URL) => Promise<URL>;

/** One authorization-code login: where to come back to, what to ask for, and who shows the page. */
export interface AuthorizationCodeInput {
  readonly redirectUri: string;
  readonly resource: string;
  readonly scope?: string | undefined;
  readonly openAndWait: AuthorizationRedirect;
}

/** Builds the authorization request URL (PKCE with the SHA-256 method, state, RFC 8707 resource, scope). */
export function authorizationUrl(
  context: GrantContext,
  input: AuthorizationCodeInput,
  challenge: string,
  state: string,
): URL {
  const endpoint = context.as.authorization_endpoint;
  if (endpoint === undefined)
    throw new OAuthFlowError('metadata', `${context.as.issuer} has no authorization_endpoint`);
  const url = new URL(endpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', context.client.clientId);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('code_challenge', challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('state', state);
  url.searchParams.set('resource', input.resource);
  if (input.scope !== undefined && input.scope !== '') url.searchParams.set('scope', input.scope);
  return url;
}

/**
 * Runs the authorization code grant with PKCE (OAuth 2.1 section 4.1): sends the person to the authorization
 * endpoint, validates the redirect (state, RFC 9207 `iss`), and exchanges the code for tokens.
 */
export async function authorizationCodeLogin(
  context: GrantContext,
  input: AuthorizationCodeInput,
): Promise<StoredTokens> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = authorizationUrl(context, input, await oauth.calculatePKCECodeChallenge(verifier), state);
  const callback = await input.openAndWait(url);
  const client = asClient(context.client);
  if (callback.searchParams.get('error') === 'access_denied') {
    throw new OAuthFlowError('consent_denied', `Consent was denied at ${context.as.issuer}; nothing was authorized`);
  }
  let parameters: URLSearchParams;
  try {
    parameters = oauth.validateAuthResponse(context.as, client, callback, state);
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    const code = /iss/i.test(detail) ? 'issuer_mismatch' : 'token';
    throw new OAuthFlowError(code, `The authorization response from ${context.as.issuer} was refused: ${detail}`, {
      cause,
    });
  }
  try {
    const response = await withNonceRetry(context, () =>
      oauth.authorizationCodeGrantRequest(
        context.as,
        client,
        context.auth,
        parameters,
        input.redirectUri,
        verifier,
        requestOptions(context, { resource: input.resource }),
      ),
    );
    return toStored(await oauth.processAuthorizationCodeResponse(context.as, client, response), context.as.issuer);
  } catch (cause) {
    throw tokenError(context, cause);
  }
}
