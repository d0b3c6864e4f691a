import * as oauth from 'oauth4webapi';
import { OAuthFlowError } from './errors.js';
import type { FetchLike } from './http.js';
import type { StoredClient, TokenStore } from './tokenStore.js';

/** How this client identifies itself to authorization servers. */
export interface ClientIdentity {
  /** The client's display name, sent in dynamic registration. */
  readonly clientName: string;
  /** An HTTPS URL serving this client's metadata document, used as `client_id` where the server supports it. */
  readonly clientMetadataUrl?: string | undefined;
  /** Credentials registered out of band, used as they are at every authorization server. */
  readonly preRegistered?: StoredClient | undefined;
}

const PREFERRED_METHODS = ['client_secret_basic', 'client_secret_post', 'none'];

/**
 * Returns the registration to use at `as`: one already stored, a pre-registered one, the client metadata document
 * URL when the server supports it, or a fresh dynamic registration (RFC 7591), which is stored.
 */
export async function resolveClient(
  fetchFn: FetchLike,
  as: oauth.AuthorizationServer,
  identity: ClientIdentity,
  redirectUri: string | undefined,
  store: TokenStore,
): Promise<StoredClient> {
  const stored = await store.getClient(as.issuer);
  if (stored !== undefined) return stored;
  if (identity.preRegistered !== undefined) return identity.preRegistered;
  if (as.client_id_metadata_document_supported === true && identity.clientMetadataUrl !== undefined) {
    return { clientId: identity.clientMetadataUrl, tokenEndpointAuthMethod: 'none' };
  }
  if (as.registration_endpoint === undefined) {
    throw new OAuthFlowError(
      'registration',
      `${as.issuer} supports neither client metadata documents nor dynamic registration; pre-register this client`,
    );
  }
  const client = await register(fetchFn, as, identity, redirectUri);
  await store.setClient(as.issuer, client);
  return client;
}

async function register(
  fetchFn: FetchLike,
  as: oauth.AuthorizationServer,
  identity: ClientIdentity,
  redirectUri: string | undefined,
): Promise<StoredClient> {
  const supported = as.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  const method = PREFERRED_METHODS.find((m) => supported.includes(m)) ?? 'client_secret_basic';
  const body = {
    client_name: identity.clientName,
    redirect_uris: redirectUri === undefined ? [] : [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: method,
    application_type: 'native',
  };
  const endpoint = as.registration_endpoint as string;
  const response = await fetchFn(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let answer: Record<string, unknown> = {};
  try {
    answer = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Reported below with the status.
  }
  if (!response.ok || typeof answer.client_id !== 'string') {
    throw new OAuthFlowError(
      'registration',
      `Dynamic registration at ${endpoint} failed (HTTP ${response.status}): ${text.slice(0, 200)}`,
    );
  }
  return {
    clientId: answer.client_id,
    clientSecret: typeof answer.client_secret === 'string' ? answer.client_secret : undefined,
    tokenEndpointAuthMethod:
      typeof answer.token_endpoint_auth_method === 'string' ? answer.token_endpoint_auth_method : method,
  };
}

/** The oauth4webapi client authentication for a registration (RFC 6749 section 2.3). */
export function clientAuth(client: StoredClient, as: oauth.AuthorizationServer): oauth.ClientAuth {
  if (client.clientSecret === undefined || client.tokenEndpointAuthMethod === 'none') return oauth.None();
  const method =
    client.tokenEndpointAuthMethod ??
    (as.token_endpoint_auth_methods_supported?.includes('client_secret_basic') === false &&
    as.token_endpoint_auth_methods_supported.includes('client_secret_post')
      ? 'client_secret_post'
      : 'client_secret_basic');
  return method === 'client_secret_post'
    ? oauth.ClientSecretPost(client.clientSecret)
    : secretBasic(client.clientSecret);
}

/**
 * `client_secret_basic` (RFC 6749 section 2.3.1). Each part is form-encoded the way `URLSearchParams` does it, which
 * leaves `-`, `.`, `_` and `*` as they are: oauth4webapi also escapes those, and some servers compare undecoded ids.
 */
export function secretBasic(secret: string): oauth.ClientAuth {
  return (_as, client, body, headers) => {
    const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
    body.delete('client_id');
    headers.set('authorization', `Basic ${btoa(`${encode(client.client_id)}:${encode(secret)}`)}`);
  };
}
