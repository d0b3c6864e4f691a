// DPoP-bound access tokens (RFC 9449) at the resource server: the scheme, the proof, and no downgrade to bearer.
import { base64url, calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { bearerAuthenticate, createDPoPReplayGuard, TokenRejectedError, type VerifiedToken } from '../src/index.js';

const ENDPOINT = 'https://mcp.example/mcp';
const key = await generateKeyPair('ES256');
const other = await generateKeyPair('ES256');
const jwk = await exportJWK(key.publicKey);
const jkt = await calculateJwkThumbprint(jwk);

/** A verifier that accepts tokens `bound` (cnf.jkt = our key) and `plain`. */
const verify = async (token: string): Promise<VerifiedToken> => {
  if (token !== 'bound' && token !== 'plain') throw new TokenRejectedError('unknown token');
  return {
    principal: 'https://id.example#alice',
    subject: 'alice',
    issuer: 'https://id.example',
    scopes: ['mcp'],
    claims: token === 'bound' ? { sub: 'alice', cnf: { jkt } } : { sub: 'alice' },
  };
};

async function proof(overrides: Record<string, unknown> = {}, signer = key, token = 'bound') {
  const ath = base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))));
  const publicJwk = await exportJWK(signer.publicKey);
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ htm: 'POST', htu: `${ENDPOINT}?ignored=1`, ath, jti: crypto.randomUUID(), iat, ...overrides })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: publicJwk })
    .sign(signer.privateKey);
}

const request = (authorization: string, dpop?: string, method = 'POST') => ({
  method,
  headers: { authorization, ...(dpop === undefined ? {} : { dpop }) },
});

describe('bearerAuthenticate with DPoP-bound tokens (RFC 9449)', () => {
  const rejected: string[] = [];
  const authenticate = bearerAuthenticate({
    verify,
    endpointUrl: ENDPOINT,
    onRejected: (error) => rejected.push(error instanceof Error ? error.message : String(error)),
  });

  it('A-S9: accepts a bound token with the DPoP scheme and a valid proof of its key, for this method and URL', async () => {
    expect(await authenticate(request('DPoP bound', await proof()))).toEqual({
      principal: 'https://id.example#alice',
      scopes: ['mcp'],
    });
    // A Fetch Request carries the same.
    const fetchRequest = new Request(ENDPOINT, {
      method: 'POST',
      headers: { authorization: 'DPoP bound', dpop: await proof() },
    });
    expect(await authenticate(fetchRequest)).toMatchObject({ principal: 'https://id.example#alice' });
    // Plain tokens go on as bearer tokens.
    expect(await authenticate(request('Bearer plain'))).toMatchObject({ scopes: ['mcp'] });
  });

  it('A-S9: refuses a bound token as a bearer token, without a proof, or with a proof that does not fit', async () => {
    rejected.length = 0;
    const cases: [string, ReturnType<typeof request>][] = [
      ['bearer use', request('Bearer bound', await proof())],
      ['no proof', request('DPoP bound')],
      ['other key', request('DPoP bound', await proof({}, other))],
      ['other method', request('DPoP bound', await proof({ htm: 'GET' }))],
      ['other URL', request('DPoP bound', await proof({ htu: 'https://evil.example/mcp' }))],
      ['other token', request('DPoP bound', await proof({}, key, 'another-token'))],
      ['old proof', request('DPoP bound', await proof({ iat: Math.floor(Date.now() / 1000) - 600 }))],
      ['not a JWT', request('DPoP bound', 'garbage')],
      ['unbound token, DPoP scheme', request('DPoP plain', await proof({}, key, 'plain'))],
    ];
    for (const [what, presented] of cases) expect(await authenticate(presented), what).toBeNull();
    expect(rejected).toEqual([
      'The DPoP-bound token was presented as a bearer token',
      'The DPoP-bound token came without a DPoP proof',
      'The DPoP proof is signed with another key than the token is bound to',
      'The DPoP proof names another HTTP method',
      'The DPoP proof names another URL',
      'The DPoP proof is for another access token',
      'The DPoP proof is too old or from the future',
      'The DPoP proof is not a valid signed dpop+jwt',
      'The DPoP scheme was used with a token that is not DPoP-bound',
    ]);
  });

  it('A-S9: without endpointUrl a bound token is refused, with the reason in the challenge', async () => {
    const strict = bearerAuthenticate({ verify, resourceMetadataUrl: `${ENDPOINT}/meta` });
    expect(await strict(request('DPoP bound', await proof()))).toEqual({
      challenge: expect.stringContaining('error_description="This server does not accept DPoP-bound tokens"'),
    });
  });

  it('A-S9: refuses a proof used before (RFC 9449 section 11.1), and a shared guard catches it at another instance', async () => {
    rejected.length = 0;
    const once = await proof();
    expect(await authenticate(request('DPoP bound', once))).toMatchObject({ principal: 'https://id.example#alice' });
    expect(await authenticate(request('DPoP bound', once))).toBeNull();
    expect(rejected).toEqual(['The DPoP proof was used before']);
    // A proof refused for another reason uses nothing up: the same jti in a valid proof is still accepted.
    const jti = crypto.randomUUID();
    expect(await authenticate(request('DPoP bound', await proof({ jti, htm: 'GET' })))).toBeNull();
    expect(await authenticate(request('DPoP bound', await proof({ jti })))).not.toBeNull();
    // Two instances, one guard.
    const dpopReplayGuard = createDPoPReplayGuard();
    const first = bearerAuthenticate({ verify, endpointUrl: ENDPOINT, dpopReplayGuard });
    const second = bearerAuthenticate({ verify, endpointUrl: ENDPOINT, dpopReplayGuard });
    const shared = await proof();
    expect(await first(request('DPoP bound', shared))).not.toBeNull();
    expect(await second(request('DPoP bound', shared))).toBeNull();
  });
});

describe('createDPoPReplayGuard', () => {
  it('remembers a proof until it expires, and at most maxEntries proofs (the oldest forgotten first)', () => {
    let now = 1_000;
    const guard = createDPoPReplayGuard({ maxEntries: 2, now: () => now });
    expect(guard.firstUse('k.a', 2_000)).toBe(true);
    expect(guard.firstUse('k.a', 2_000)).toBe(false);
    now = 2_000;
    expect(guard.firstUse('k.a', 3_000)).toBe(true);
    expect(guard.firstUse('k.b', 3_000)).toBe(true);
    expect(guard.firstUse('k.c', 3_000)).toBe(true);
    // The bound forgot the oldest (k.a); k.b and k.c are still refused.
    expect(guard.firstUse('k.b', 3_000)).toBe(false);
    expect(guard.firstUse('k.c', 3_000)).toBe(false);
    expect(guard.firstUse('k.a', 3_000)).toBe(true);
    expect(() => createDPoPReplayGuard({ maxEntries: 0 })).toThrow(RangeError);
  });
});
