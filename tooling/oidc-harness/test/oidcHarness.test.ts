import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OidcHarness, startOidcHarness } from '../src/index.js';

const RESOURCE = 'http://127.0.0.1:9/mcp';
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString());

describe('oidc harness (JWT access tokens)', () => {
  let harness: OidcHarness;
  beforeAll(async () => {
    harness = await startOidcHarness();
  });
  afterAll(() => harness.close());

  it('publishes discovery with registration, PKCE S256, introspection and resource indicators', async () => {
    const metadata = await (await fetch(`${harness.issuer}/.well-known/openid-configuration`)).json();
    expect(metadata).toMatchObject({
      issuer: harness.issuer,
      registration_endpoint: `${harness.issuer}/reg`,
      code_challenge_methods_supported: ['S256'],
      introspection_endpoint: harness.introspectionEndpoint,
      authorization_response_iss_parameter_supported: true,
    });
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['offline_access', 'deploy']));
  });

  it('logs a user in through login and consent driven over HTTP: a JWT for the resource with sub = the user', async () => {
    const alice = await harness.tokensFor('alice', { resource: RESOURCE, scope: 'deploy offline_access' });
    expect(claimsOf(alice.accessToken)).toMatchObject({ iss: harness.issuer, sub: 'alice', aud: RESOURCE });
    expect(alice.scope).toContain('deploy');
    expect(alice.refreshToken).toBeTypeOf('string');
    const bob = await harness.tokensFor('bob', { resource: RESOURCE });
    expect(claimsOf(bob.accessToken).sub).toBe('bob');
  });

  it('a denied consent redirects back with error=access_denied', async () => {
    const registered = await (
      await fetch(`${harness.issuer}/reg`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          redirect_uris: ['http://127.0.0.1/cb'],
          application_type: 'native',
          token_endpoint_auth_method: 'none',
        }),
      })
    ).json();
    const url = new URL('/auth', harness.issuer);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: registered.client_id,
      redirect_uri: 'http://127.0.0.1:4567/cb',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      state: 's',
      resource: RESOURCE,
    }).toString();
    const back = await harness.consent(url, { user: 'bob', decision: 'deny' });
    expect(back.origin).toBe('http://127.0.0.1:4567');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('iss')).toBe(harness.issuer);
  });

  it('expireRefreshTokens makes the next refresh fail with invalid_grant', async () => {
    const { refreshToken } = await harness.tokensFor('alice', { resource: RESOURCE });
    expect(harness.expireRefreshTokens()).toBeGreaterThan(0);
    const refreshed = await fetch(`${harness.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: refreshToken ?? '',
        client_id: 'mcp-tasks-harness',
      }).toString(),
    });
    expect(refreshed.status).toBe(400);
    expect(await refreshed.json()).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('oidc harness (opaque access tokens)', () => {
  it('answers introspection for the resource server client only', async () => {
    const harness = await startOidcHarness({ accessTokenFormat: 'opaque' });
    try {
      const { accessToken } = await harness.tokensFor('bob', { resource: RESOURCE, scope: 'deploy' });
      expect(accessToken.split('.')).toHaveLength(1);
      const introspect = (authorization: string) =>
        fetch(harness.introspectionEndpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
          body: new URLSearchParams({ token: accessToken }).toString(),
        });
      const { clientId, clientSecret } = harness.resourceServer;
      const answer = await (await introspect(`Basic ${btoa(`${clientId}:${clientSecret}`)}`)).json();
      expect(answer).toMatchObject({ active: true, sub: 'bob', aud: RESOURCE, iss: harness.issuer });
      expect(answer.scope).toContain('deploy');
      expect((await introspect(`Basic ${btoa(`${clientId}:wrong`)}`)).status).toBe(401);
    } finally {
      await harness.close();
    }
  });
});
