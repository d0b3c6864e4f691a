/** Starts a real authorization server (oidc-provider) on 127.0.0.1 for tests and the demo. */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { type ConsentChoice, driveConsent } from './consentDriver.js';
import { interactionRoutes } from './interactions.js';
import { MemoryStorage } from './memoryAdapter.js';
import { HARNESS_CLIENT_ID, HARNESS_REDIRECT_URI, providerConfiguration } from './providerConfig.js';
import type { UserName } from './users.js';

/** Options of {@link startOidcHarness}. */
export interface OidcHarnessOptions {
  /** Port on 127.0.0.1; 0 picks a free one. @default 0 */
  readonly port?: number | undefined;
  /** The scopes resources may be granted (besides `openid` and `offline_access`). @default ['deploy'] */
  readonly scopes?: readonly string[] | undefined;
  /** `jwt` (RFC 9068, ES256) or `opaque` (checked by introspection) access tokens. @default 'jwt' */
  readonly accessTokenFormat?: 'jwt' | 'opaque' | undefined;
  /** Access token lifetime in seconds. @default 600 */
  readonly accessTokenTtlSeconds?: number | undefined;
}

/** Tokens the harness obtained for a user with its own client. */
export interface HarnessTokens {
  readonly accessToken: string;
  readonly refreshToken?: string | undefined;
  readonly scope?: string | undefined;
}

/** A running authorization server. */
export interface OidcHarness {
  /** The issuer URL (`http://127.0.0.1:PORT`). */
  readonly issuer: string;
  /** The client a resource server introspects with (RFC 7662, HTTP Basic). */
  readonly resourceServer: { readonly clientId: string; readonly clientSecret: string };
  /** Its introspection endpoint. */
  readonly introspectionEndpoint: string;
  /**
   * Plays the person: follows `authorizationUrl` through login (as `choice.user`) and consent (`choice.decision`),
   * and resolves with the redirect back to the client, without requesting it.
   */
  consent(authorizationUrl: string | URL, choice?: ConsentChoice): Promise<URL>;
  /**
   * Logs `user` in with the harness's own public client and returns the tokens (e.g. for a bearer-token test).
   * `scope` defaults to every resource scope plus `offline_access` (oidc-provider refuses a request granting none).
   */
  tokensFor(user: UserName, request: { resource: string; scope?: string | undefined }): Promise<HarnessTokens>;
  /** Forgets every refresh token, so the next refresh is refused with `invalid_grant` (an expired one). */
  expireRefreshTokens(): number;
  /** Stops the server. */
  close(): Promise<void>;
}

/** Starts the authorization server and resolves once it is listening. */
export async function startOidcHarness(options: OidcHarnessOptions = {}): Promise<OidcHarness> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const storage = new MemoryStorage();
  const resourceServer = { clientId: 'mcp-resource-server', clientSecret: randomBytes(16).toString('hex') };
  const scopes = options.scopes ?? ['deploy'];
  const provider = new Provider(
    issuer,
    providerConfiguration({
      storage,
      scopes,
      accessTokenFormat: options.accessTokenFormat ?? 'jwt',
      accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 600,
      resourceServer,
    }),
  );
  const interactions = interactionRoutes(provider);
  const callback = provider.callback();
  server.on('request', (req, res) => {
    interactions(req, res).then((handled) => {
      if (!handled) callback(req, res);
    });
  });
  const consent = (url: string | URL, choice?: ConsentChoice) => driveConsent(issuer, url, choice);
  return {
    issuer,
    resourceServer,
    introspectionEndpoint: `${issuer}/token/introspection`,
    consent,
    tokensFor: (user, request) =>
      harnessLogin(issuer, consent, user, { scope: [...scopes, 'offline_access'].join(' '), ...request }),
    expireRefreshTokens: () => storage.deleteWhere((key) => key.startsWith('RefreshToken:')),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function harnessLogin(
  issuer: string,
  consent: OidcHarness['consent'],
  user: UserName,
  request: { resource: string; scope?: string | undefined },
): Promise<HarnessTokens> {
  const verifier = randomBytes(32).toString('base64url');
  const url = new URL('/auth', issuer);
  const params = {
    response_type: 'code',
    client_id: HARNESS_CLIENT_ID,
    redirect_uri: HARNESS_REDIRECT_URI,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: randomBytes(8).toString('hex'),
    resource: request.resource,
    scope: request.scope ?? 'offline_access',
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const back = await consent(url, { user });
  const code = back.searchParams.get('code');
  if (code === null) throw new Error(`The harness login of ${user} failed: ${back.search}`);
  const response = await fetch(new URL('/token', issuer), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: HARNESS_REDIRECT_URI,
      code_verifier: verifier,
      client_id: HARNESS_CLIENT_ID,
      resource: request.resource,
    }).toString(),
  });
  const body = (await response.json()) as { access_token?: string; refresh_token?: string; scope?: string };
  if (!response.ok || body.access_token === undefined)
    throw new Error(`The harness token request failed (HTTP ${response.status}): ${JSON.stringify(body)}`);
  return { accessToken: body.access_token, refreshToken: body.refresh_token, scope: body.scope };
}
