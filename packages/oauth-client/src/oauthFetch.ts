import type * as oauth from 'oauth4webapi';
import { type AuthorizationRedirect, authorizationCodeLogin } from './authorizationCode.js';
import { type BearerChallenge, parseBearerChallenge } from './challenge.js';
import { type ClientCredentials, clientCredentialsToken, credentialsAuth } from './clientCredentials.js';
import {
  createDPoPSigner,
  type DPoPOptions,
  type DPoPSigner,
  isDPoPTokenType,
  isResourceNonceChallenge,
  requireNonce,
  sendWithDPoP,
  serverAcceptsDPoP,
} from './dpop.js';
import { type EnterpriseAuthorization, enterpriseToken } from './enterprise.js';
import { OAuthFlowError } from './errors.js';
import { type GrantContext, refreshTokens } from './grants.js';
import { type FetchLike, isLoopbackHttp } from './http.js';
import { type ClientIdentity, clientAuth, resolveClient } from './registration.js';
import { canonicalResource, discoverResourceMetadata, type ResourceMetadata } from './resourceMetadata.js';
import { discoverServerMetadata } from './serverMetadata.js';
import { MemoryTokenStore, type StoredTokens, type TokenStore } from './tokenStore.js';

/** Options of {@link withOAuth}. */
export interface OAuthFetchOptions {
  /** How the client identifies itself (metadata document URL, pre-registration, or a name for registration). */
  readonly identity: ClientIdentity;
  /** Where tokens and registrations live. @default a {@link MemoryTokenStore} */
  readonly store?: TokenStore | undefined;
  /** The redirect URI registered for the authorization code grant (a loopback URL for a CLI). */
  readonly redirectUri?: string | undefined;
  /** Shows the authorization page to a person and waits for the redirect; without it only refresh works. */
  readonly authorize?: AuthorizationRedirect | undefined;
  /** Use the client credentials grant instead of a person's login. */
  readonly clientCredentials?: ClientCredentials | undefined;
  /** Use enterprise-managed authorization (an ID token from the enterprise identity provider) instead of a login. */
  readonly enterpriseAuthorization?: EnterpriseAuthorization | undefined;
  /**
   * DPoP (RFC 9449): used when the authorization server lists the key's algorithm in
   * `dpop_signing_alg_values_supported`; `false` never uses it. @default `{}` (a fresh ES256 key per wrapper)
   */
  readonly dpop?: DPoPOptions | false | undefined;
  /** How many times one request may re-authorize after `insufficient_scope` or a 401. @default 2 */
  readonly maxAuthorizations?: number | undefined;
  /** The fetch under the wrapper. @default globalThis.fetch */
  readonly fetch?: FetchLike | undefined;
  /** Deadline for each metadata request, in milliseconds. @default 30000 */
  readonly timeoutMs?: number | undefined;
}

/**
 * Wraps `fetch` with MCP authorization: sends the stored access token, and on a 401 (or a 403 `insufficient_scope`)
 * discovers the protected resource and its authorization server, registers if needed, obtains a token (refresh,
 * client credentials, enterprise-managed authorization, or an authorization-code login through `authorize`) and
 * replays the request. Tokens are DPoP-bound when the authorization server offers DPoP. Pass the result as
 * `HttpClientTransport`'s `fetch` option.
 */
export function withOAuth(options: OAuthFetchOptions): (input: string | URL, init?: RequestInit) => Promise<Response> {
  const store = options.store ?? new MemoryTokenStore();
  const base = options.fetch ?? ((input, init) => fetch(input, init));
  const limit = options.maxAuthorizations ?? 2;
  const timeoutMs = options.timeoutMs ?? 30_000;
  // The scopes last asked for per resource: a step-up asks for their union with the new challenge.
  const requested = new Map<string, string>();
  // One proof key per wrapper, made on first use: the tokens it binds are only good with it.
  let signer: Promise<DPoPSigner> | undefined;
  const dpop = () => {
    if (options.dpop === false) return undefined;
    signer ??= createDPoPSigner(options.dpop ?? {});
    return signer;
  };
  return async (input, init = {}) => {
    const server = new URL(String(input));
    const key = canonicalResource(server);
    let tokens = await store.getTokens(key);
    if (tokens !== undefined && isExpired(tokens)) tokens = undefined;
    let response = await send(base, input, init, tokens, dpop);
    for (let attempt = 0; ; attempt++) {
      const challenge = challengeOf(response);
      if (challenge === undefined) return response;
      if (attempt >= limit) {
        if (response.status === 403) {
          throw new OAuthFlowError(
            'step_up_limit',
            `${server.href} still answers insufficient_scope after ${limit} attempts`,
          );
        }
        return response;
      }
      await response.body?.cancel();
      const flow: Flow = { options, store, base, timeoutMs, server, key, requested, dpop };
      tokens = await obtainTokens(flow, challenge, await store.getTokens(key), response.status === 403);
      await store.setTokens(key, tokens);
      response = await send(base, input, init, tokens, dpop);
    }
  };
}

interface Flow {
  readonly options: OAuthFetchOptions;
  readonly store: TokenStore;
  readonly base: FetchLike;
  readonly timeoutMs: number;
  readonly server: URL;
  readonly key: string;
  readonly requested: Map<string, string>;
  readonly dpop: () => Promise<DPoPSigner> | undefined;
}

/**
 * Sends `init` with the token: `Bearer`, or `DPoP` with a fresh proof for a DPoP-bound token, once more when the
 * resource server answers `use_dpop_nonce` (RFC 9449 section 9).
 */
async function send(
  base: FetchLike,
  input: string | URL,
  init: RequestInit,
  tokens: StoredTokens | undefined,
  dpop: () => Promise<DPoPSigner> | undefined,
): Promise<Response> {
  if (tokens === undefined) return base(input, init);
  const signer = isDPoPTokenType(tokens.tokenType) ? await dpop() : undefined;
  if (signer === undefined) {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${tokens.accessToken}`);
    return base(input, { ...init, headers });
  }
  const response = await sendWithDPoP(base, input, init, tokens.accessToken, signer);
  if (!isResourceNonceChallenge(response)) return response;
  await response.body?.cancel();
  requireNonce(response, `The MCP server ${String(input)}`);
  return sendWithDPoP(base, input, init, tokens.accessToken, signer);
}

function challengeOf(response: Response): BearerChallenge | undefined {
  if (response.status !== 401 && response.status !== 403) return undefined;
  const header = response.headers.get('www-authenticate');
  const challenge = parseBearerChallenge(header) ?? parseBearerChallenge(header, 'DPoP');
  if (response.status === 401) return challenge ?? {};
  return challenge?.error === 'insufficient_scope' ? challenge : undefined;
}

function isExpired(tokens: StoredTokens): boolean {
  return tokens.expiresAt !== undefined && tokens.expiresAt <= Date.now() + 5_000 && tokens.refreshToken === undefined;
}

async function obtainTokens(
  flow: Flow,
  challenge: BearerChallenge,
  previous: StoredTokens | undefined,
  stepUp: boolean,
): Promise<StoredTokens> {
  const metadata = await discoverResourceMetadata(flow.base, flow.server, challenge.resourceMetadata, flow.timeoutMs);
  const issuer = metadata.authorizationServers[0];
  if (issuer === undefined) throw new OAuthFlowError('metadata', `${flow.server.href} names no authorization server`);
  const as = await discoverServerMetadata(flow.base, issuer, metadata.legacy, flow.timeoutMs);
  const resource = metadata.legacy ? flow.key : metadata.resource;
  const scope = unionScope(flow.requested.get(flow.key), chooseScope(challenge, metadata, as));
  if (scope !== undefined) flow.requested.set(flow.key, scope);
  const context = await grantContext(flow, as);
  const enterprise = flow.options.enterpriseAuthorization;
  if (enterprise !== undefined) return enterpriseToken(context, enterprise, resource, scope);
  const credentials = flow.options.clientCredentials;
  if (credentials !== undefined) {
    const assertion = 'assertion' in credentials ? credentials.assertion : undefined;
    return clientCredentialsToken(context, resource, scope, assertion);
  }
  // A refresh can renew an expired token, but cannot widen its scope or move it to another issuer.
  if (!stepUp && previous?.refreshToken !== undefined && previous.issuer === as.issuer) {
    try {
      return await refreshTokens(context, previous, resource);
    } catch (error) {
      if (!(error instanceof OAuthFlowError) || flow.options.authorize === undefined) throw error;
    }
  }
  const { authorize, redirectUri } = flow.options;
  if (authorize === undefined || redirectUri === undefined) {
    throw new OAuthFlowError('refresh_expired', `${flow.server.href} needs a login; run the login command first`);
  }
  return authorizationCodeLogin(context, { redirectUri, resource, scope, openAndWait: authorize });
}

async function grantContext(flow: Flow, as: oauth.AuthorizationServer): Promise<GrantContext> {
  const insecure = isLoopbackHttp(new URL(as.issuer)) || isLoopbackHttp(flow.server);
  const signer = await flow.dpop();
  const dpop = signer !== undefined && serverAcceptsDPoP(as, signer) ? signer.handle : undefined;
  const shared = { as, fetchFn: flow.base, insecure, dpop };
  const { clientCredentials, enterpriseAuthorization } = flow.options;
  if (enterpriseAuthorization !== undefined) {
    const client = enterpriseAuthorization.client;
    return { ...shared, client, auth: clientAuth(client, as) };
  }
  if (clientCredentials !== undefined) {
    const client = { clientId: clientCredentials.clientId };
    return { ...shared, client, auth: await credentialsAuth(clientCredentials) };
  }
  const client = await resolveClient(flow.base, as, flow.options.identity, flow.options.redirectUri, flow.store);
  return { ...shared, client, auth: clientAuth(client, as) };
}

/** Scope: the challenge's, else the resource's `scopes_supported`, else none; plus `offline_access` when offered. */
function chooseScope(
  challenge: BearerChallenge,
  metadata: ResourceMetadata,
  as: oauth.AuthorizationServer,
): string | undefined {
  const scopes = (challenge.scope ?? metadata.scopesSupported?.join(' ') ?? '').split(/\s+/).filter((s) => s !== '');
  if (scopes.length === 0) return undefined;
  if (as.scopes_supported?.includes('offline_access') && !scopes.includes('offline_access')) {
    scopes.push('offline_access');
  }
  return scopes.join(' ');
}

function unionScope(before: string | undefined, now: string | undefined): string | undefined {
  if (before === undefined || now === undefined) return now;
  return [...new Set([...before.split(' '), ...now.split(' ')])].join(' ');
}
