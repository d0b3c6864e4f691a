import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { base64url, calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerAuthenticate, createJwtVerifier } from '../src/index.js';

const ISSUER = 'https://issuer.example';
const RESOURCE = 'https://mcp.example/mcp';
const issuerKey = await generateKeyPair('ES256');
const clientKey = await generateKeyPair('ES256');
const otherKey = await generateKeyPair('ES256');
let server: Server;
let base = '';

beforeAll(async () => {
  const jwks = { keys: [{ ...(await exportJWK(issuerKey.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] };
  server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(jwks));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

async function boundToken(): Promise<string> {
  const jkt = await calculateJwkThumbprint(await exportJWK(clientKey.publicKey));
  return new SignJWT({ scope: 'deploy', cnf: { jkt } })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(ISSUER)
    .setSubject('alice')
    .setAudience(RESOURCE)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(issuerKey.privateKey);
}

let jtis = 0;
async function proof(
  token: string,
  claims: { htm?: string; htu?: string; ath?: string; jti?: string } = {},
  key = clientKey,
) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  return new SignJWT({
    htm: claims.htm ?? 'POST',
    htu: claims.htu ?? `${RESOURCE}?ignored=1`,
    ath: claims.ath ?? base64url.encode(digest),
    jti: claims.jti ?? `jti-${++jtis}`,
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: (await exportJWK(key.publicKey)) as JWK })
    .setIssuedAt()
    .sign(key.privateKey);
}

function authenticate() {
  const verify = createJwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwksUri: `${base}/jwks` });
  const refusals: string[] = [];
  const check = bearerAuthenticate({
    verify,
    resource: RESOURCE,
    resourceMetadataUrl: `${RESOURCE}/.well-known`,
    onRejected: (error) => refusals.push(error instanceof Error ? error.message : String(error)),
  });
  return { check, refusals };
}

const request = (authorization: string, dpop?: string, method = 'POST') => ({
  method,
  url: '/mcp',
  headers: { authorization, host: 'mcp.example', ...(dpop === undefined ? {} : { dpop }) },
});

describe('DPoP-bound tokens (RFC 9449 section 7)', () => {
  it('accepts the token with the DPoP scheme and a fresh proof of its key for this request', async () => {
    const { check } = authenticate();
    const token = await boundToken();
    expect(await check(request(`DPoP ${token}`, await proof(token)))).toEqual({
      principal: JSON.stringify([ISSUER, 'alice']),
      scopes: ['deploy'],
    });
  });

  it.each([
    [
      'as a Bearer token',
      async (t: string) => request(`Bearer ${t}`, await proof(t)),
      'The access token is DPoP-bound',
    ],
    ['without a proof', async (t: string) => request(`DPoP ${t}`), 'The DPoP proof header is missing'],
    [
      'for another method',
      async (t: string) => request(`DPoP ${t}`, await proof(t, { htm: 'GET' })),
      'htm is not POST',
    ],
    [
      'for another URL',
      async (t: string) => request(`DPoP ${t}`, await proof(t, { htu: 'https://evil.example/mcp' })),
      'htu is not this resource',
    ],
    [
      'for another token',
      async (t: string) => request(`DPoP ${t}`, await proof(t, { ath: 'x' })),
      'ath does not match',
    ],
    [
      'signed by another key',
      async (t: string) => request(`DPoP ${t}`, await proof(t, {}, otherKey)),
      'signed by another key',
    ],
  ])('refuses it %s, saying why', async (_case, build, reason) => {
    const { check, refusals } = authenticate();
    const answer = await check(await build(await boundToken()));
    expect(answer).toMatchObject({ challenge: expect.stringContaining('invalid_token') });
    expect(refusals.join('\n')).toContain(reason);
  });

  it('refuses a replayed proof', async () => {
    const { check, refusals } = authenticate();
    const token = await boundToken();
    const once = await proof(token, { jti: 'same' });
    expect(await check(request(`DPoP ${token}`, once))).toMatchObject({ principal: expect.any(String) });
    expect(await check(request(`DPoP ${token}`, once))).toMatchObject({ challenge: expect.any(String) });
    expect(refusals.join('\n')).toContain('missing or replayed jti');
  });
});
