import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearerAuthenticate,
  bearerChallenge,
  createJwtVerifier,
  principalOf,
  TokenRejectedError,
} from '../src/index.js';

const ISSUER = 'https://issuer.example';
const AUDIENCE = 'https://mcp.example/mcp';
let server: Server;
let jwks: { keys: JWK[] } = { keys: [] };
let hang = false;
let base = '';
const key = await generateKeyPair('ES256');

beforeAll(async () => {
  jwks = { keys: [{ ...(await exportJWK(key.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] };
  server = createServer((_req, res) => {
    if (hang) return; // never answers
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

function sign(claims: { aud?: string; exp?: number }, kid = 'k1', signer = key.privateKey) {
  return new SignJWT({ scope: 'tasks:read' })
    .setProtectedHeader({ alg: 'ES256', kid })
    .setIssuer(ISSUER)
    .setSubject('alice')
    .setAudience(claims.aud ?? AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(claims.exp ?? '5m')
    .sign(signer);
}

// Only the hanging case needs a short deadline: a loaded CI machine can take over 300 ms to serve the JWKS.
const verifier = (jwksTimeoutMs = 10_000) =>
  createJwtVerifier({
    issuer: ISSUER,
    audience: AUDIENCE,
    jwksUri: `${base}/jwks`,
    jwksTimeoutMs,
    jwksCooldownMs: 0,
  });

describe('createJwtVerifier', () => {
  it('A-S3, A-S5: accepts a token from the issuer for this resource; the principal is issuer + subject', async () => {
    const verified = await verifier()(await sign({}));
    expect(verified.principal).toBe(principalOf(ISSUER, 'alice'));
    expect(verified.scopes).toEqual(['tasks:read']);
  });

  it('A-S3: refuses a token for another audience', async () => {
    const token = await sign({ aud: 'https://other.example/mcp' });
    await expect(verifier()(token)).rejects.toThrow(/"aud" claim is not accepted/);
  });

  it('A-S4: refuses alg none', async () => {
    const token = new UnsecuredJWT({ sub: 'alice' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime('5m')
      .encode();
    await expect(verifier()(token)).rejects.toBeInstanceOf(TokenRejectedError);
  });

  it('A-S4: refuses an unknown kid', async () => {
    const other = await generateKeyPair('ES256');
    await expect(verifier()(await sign({}, 'k9', other.privateKey))).rejects.toThrow(/key the issuer does not publish/);
  });

  it('A-S4: refuses an expired token beyond the leeway', async () => {
    const token = await sign({ exp: Math.floor(Date.now() / 1000) - 120 });
    await expect(verifier()(token)).rejects.toThrow(/expired/);
  });

  it('gives a clear error when the JWKS endpoint hangs', async () => {
    hang = true;
    try {
      await expect(verifier(300)(await sign({}))).rejects.toThrow(/did not answer in time/);
    } finally {
      hang = false;
    }
  });

  it('picks up a rotated key without a restart', async () => {
    const verify = verifier();
    await verify(await sign({}));
    const rotated = await generateKeyPair('ES256');
    jwks = { keys: [...jwks.keys, { ...(await exportJWK(rotated.publicKey)), kid: 'k2', alg: 'ES256' }] };
    await expect(verify(await sign({}, 'k2', rotated.privateKey))).resolves.toMatchObject({ subject: 'alice' });
  });
});

describe('bearerAuthenticate', () => {
  it('maps a valid bearer token to its principal and scopes, anything else to null', async () => {
    const rejected: unknown[] = [];
    const authenticate = bearerAuthenticate({ verify: verifier(), onRejected: (e) => rejected.push(e) });
    const token = await sign({});
    const alice = { principal: principalOf(ISSUER, 'alice'), scopes: ['tasks:read'] };
    expect(await authenticate({ headers: { authorization: `Bearer ${token}` } })).toEqual(alice);
    expect(await authenticate(new Request('http://x/', { headers: { authorization: `Bearer ${token}` } }))).toEqual(
      alice,
    );
    expect(await authenticate({ headers: {} })).toBeNull();
    expect(await authenticate({ headers: { authorization: 'Bearer not.a.jwt' } })).toBeNull();
    expect(rejected).toHaveLength(1);
    // The WebSocket upgrade passes the token it found (a browser's subprotocol entry): it wins over the header.
    expect(await authenticate({ headers: { authorization: 'Bearer not.a.jwt' } }, token)).toEqual(alice);
  });

  it('A-S4: with resourceMetadataUrl, a refused token is answered with error="invalid_token" and the reason', async () => {
    const authenticate = bearerAuthenticate({
      verify: verifier(),
      resourceMetadataUrl: 'https://mcp.example/.well-known/oauth-protected-resource/mcp',
    });
    const token = await sign({ aud: 'https://other.example/mcp' });
    expect(await authenticate({ headers: { authorization: `Bearer ${token}` } })).toEqual({
      challenge:
        'Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp", ' +
        'error="invalid_token", error_description="The access token\'s \\"aud\\" claim is not accepted"',
    });
    // No token at all is not an invalid one: the transport's plain challenge applies.
    expect(await authenticate({ headers: {} })).toBeNull();
  });
});

describe('bearerChallenge', () => {
  it('quotes what it is given, and never lets a character a header cannot carry through', () => {
    const value = bearerChallenge({
      resourceMetadataUrl: 'https://m/x',
      error: 'invalid_token',
      errorDescription: 'bad "token"\r\nSet-Cookie: x=1 \u2603',
    });
    expect(value).toBe(
      'Bearer resource_metadata="https://m/x", error="invalid_token", error_description="bad \\"token\\"  Set-Cookie: x=1  "',
    );
  });
});
