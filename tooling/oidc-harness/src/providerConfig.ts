/** The oidc-provider configuration of the harness: what an MCP authorization server must offer, nothing more. */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { Configuration, JWK } from 'oidc-provider';
import { type MemoryStorage, memoryAdapter } from './memoryAdapter.js';
import { isUser, USERS } from './users.js';

/** The public client the harness itself logs in with (`accessToken`), with a loopback redirect URI. */
export const HARNESS_CLIENT_ID = 'mcp-tasks-harness';
/** Its redirect URI; any port is accepted (RFC 8252 section 7.3, native client). */
export const HARNESS_REDIRECT_URI = 'http://127.0.0.1/callback';

/** What {@link providerConfiguration} needs from the harness options. */
export interface ProviderSettings {
  readonly storage: MemoryStorage;
  readonly scopes: readonly string[];
  readonly accessTokenFormat: 'jwt' | 'opaque';
  readonly accessTokenTtlSeconds: number;
  readonly resourceServer: { readonly clientId: string; readonly clientSecret: string };
}

function signingKeys(): JWK[] {
  // RS256 for ID tokens (the OpenID Connect default), ES256 for JWT access tokens.
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  return [
    { ...rsa, kid: `rs-${randomBytes(4).toString('hex')}`, alg: 'RS256', use: 'sig' } as JWK,
    { ...ec, kid: `es-${randomBytes(4).toString('hex')}`, alg: 'ES256', use: 'sig' } as JWK,
  ];
}

/**
 * Open dynamic registration, PKCE, RFC 8707 resource indicators (each resource gets access tokens for itself, JWT
 * signed ES256 or opaque), introspection for the resource server's client, refresh tokens for every client allowed
 * the grant (oidc-provider otherwise drops `offline_access` unless `prompt=consent`), and the harness's own
 * login/consent pages at `/interaction/:uid`.
 */
export function providerConfiguration(settings: ProviderSettings): Configuration {
  return {
    adapter: memoryAdapter(settings.storage),
    clients: [
      {
        client_id: HARNESS_CLIENT_ID,
        token_endpoint_auth_method: 'none',
        application_type: 'native',
        redirect_uris: [HARNESS_REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
      {
        client_id: settings.resourceServer.clientId,
        client_secret: settings.resourceServer.clientSecret,
        redirect_uris: [],
        grant_types: [],
        response_types: [],
      },
    ],
    findAccount: async (_ctx, id) =>
      isUser(id) ? { accountId: id, claims: async () => ({ sub: id, ...USERS[id] }) } : undefined,
    jwks: { keys: signingKeys() },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    scopes: ['openid', 'offline_access', ...settings.scopes],
    claims: { openid: ['sub'], profile: ['name'], email: ['email'] },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx, client) => client.clientId === settings.resourceServer.clientId,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx, _client, oneOf) => oneOf ?? undefined,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => ({
          scope: settings.scopes.join(' '),
          audience: resource,
          accessTokenTTL: settings.accessTokenTtlSeconds,
          accessTokenFormat: settings.accessTokenFormat,
          ...(settings.accessTokenFormat === 'jwt' ? { jwt: { sign: { alg: 'ES256' } } } : {}),
        }),
      },
    },
    interactions: { url: async (_ctx, interaction) => `/interaction/${interaction.uid}` },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    pkce: { required: () => true },
    responseTypes: ['code'],
    ttl: {
      AccessToken: settings.accessTokenTtlSeconds,
      RefreshToken: 24 * 3600,
      Grant: 24 * 3600,
      Session: 24 * 3600,
      Interaction: 600,
      AuthorizationCode: 60,
    },
    clientBasedCORS: () => true,
  };
}
