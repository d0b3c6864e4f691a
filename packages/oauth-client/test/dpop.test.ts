import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, decodeProtectedHeader, exportJWK, importJWK, type JWK, jwtVerify } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { OAuthFlowError, withOAuth } from '../src/index.js';
import {
  type Answer,
  followRedirect,
  type LocalServers,
  type Recorded,
  type Routes,
  startServers,
  unauthorized,
} from './localServers.js';

const AS_NONCE = 'as-nonce-1';
const RS_NONCE = 'rs-nonce-1';

interface Proof {
  readonly jkt: string;
  readonly payload: Record<string, unknown>;
}

/** Verifies a DPoP proof as RFC 9449 section 4.3 says; `undefined` when it is missing or invalid. */
async function verifyProof(request: Recorded, htu: string): Promise<Proof | undefined> {
  const proof = request.headers.dpop;
  if (typeof proof !== 'string') return undefined;
  try {
    const header = decodeProtectedHeader(proof);
    const jwk = header.jwk as JWK | undefined;
    if (header.typ !== 'dpop+jwt' || jwk === undefined || jwk.d !== undefined) return undefined;
    const { payload } = await jwtVerify(proof, await importJWK(jwk, header.alg));
    if (payload.htm !== request.method || payload.htu !== htu || typeof payload.jti !== 'string') return undefined;
    return { jkt: await calculateJwkThumbprint(jwk), payload };
  } catch {
    return undefined;
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** An authorization server and resource server that bind tokens to the proof key and may require nonces. */
function dpopRoutes(base: () => string, opts: { asNonce?: string; rsNonce?: string; algs?: string[] }): Routes {
  const bound = new Map<string, string>();
  return {
    asMetadata: opts.algs === undefined ? {} : { dpop_signing_alg_values_supported: opts.algs },
    token: async (request): Promise<Answer> => {
      const proof = await verifyProof(request, `${base()}/token`);
      if (proof === undefined) {
        return { status: 200, body: { access_token: 'bearer-1', token_type: 'Bearer', expires_in: 3600 } };
      }
      if (opts.asNonce !== undefined && proof.payload.nonce !== AS_NONCE) {
        const body = { error: 'use_dpop_nonce' };
        return { status: 400, body, headers: { 'dpop-nonce': opts.asNonce } };
      }
      const token = `dpop-${bound.size + 1}`;
      bound.set(token, proof.jkt);
      return { status: 200, body: { access_token: token, token_type: 'DPoP', expires_in: 3600 } };
    },
    resource: async (request): Promise<Answer> => {
      const [scheme, token = ''] = (request.headers.authorization ?? '').split(' ');
      if (scheme === 'Bearer' && token === 'bearer-1') return { status: 200, body: { ok: 'bearer' } };
      if (scheme !== 'DPoP') return unauthorized(base(), 'DPoP');
      const proof = await verifyProof(request, `${base()}/mcp`);
      if (proof === undefined || proof.payload.ath !== sha256(token) || bound.get(token) !== proof.jkt) {
        return unauthorized(base(), 'DPoP', 'error="invalid_token", ');
      }
      if (opts.rsNonce !== undefined && proof.payload.nonce !== RS_NONCE) {
        const challenge = unauthorized(base(), 'DPoP', 'error="use_dpop_nonce", ');
        const nonce: Record<string, string> = opts.rsNonce === '' ? {} : { 'dpop-nonce': opts.rsNonce };
        return { ...challenge, headers: { ...challenge.headers, ...nonce } };
      }
      return { status: 200, body: { ok: 'dpop' } };
    },
  };
}

let servers: LocalServers | undefined;
afterEach(async () => {
  await servers?.close();
  servers = undefined;
});

async function start(opts: Parameters<typeof dpopRoutes>[1]): Promise<LocalServers> {
  let base = '';
  servers = await startServers(dpopRoutes(() => base, opts));
  base = servers.base;
  return servers;
}

function client(extra: Partial<Parameters<typeof withOAuth>[0]> = {}) {
  return withOAuth({
    identity: { clientName: 'test', preRegistered: { clientId: 'c1', tokenEndpointAuthMethod: 'none' } },
    redirectUri: 'http://127.0.0.1:9/callback',
    authorize: followRedirect,
    ...extra,
  });
}

const post = {
  method: 'POST',
  headers: { 'mcp-protocol-version': '2026-07-28' },
  body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
};
const proofsAt = (s: LocalServers, path: string) =>
  s.requests.filter((r) => r.path === path).map((r) => r.headers.dpop as string | undefined);

describe('DPoP (RFC 9449)', () => {
  it('A-C3: binds the token to its key, retries the token request and the MCP request with the servers’ nonces', async () => {
    const s = await start({ asNonce: AS_NONCE, rsNonce: RS_NONCE, algs: ['ES256'] });
    const fetchMcp = client();
    expect(await (await fetchMcp(`${s.base}/mcp`, post)).json()).toEqual({ ok: 'dpop' });
    expect(await (await fetchMcp(`${s.base}/mcp`, post)).json()).toEqual({ ok: 'dpop' });

    const tokenProofs = proofsAt(s, '/token');
    expect(tokenProofs).toHaveLength(2);
    expect(tokenProofs.map((p) => decodePayload(p).nonce)).toEqual([undefined, AS_NONCE]);
    // Unauthenticated, nonce challenge, retried with the nonce, then the second call reuses the nonce at once.
    const mcp = s.requests.filter((r) => r.path === '/mcp');
    expect(mcp.map((r) => (r.headers.authorization ?? '').split(' ')[0])).toEqual(['', 'DPoP', 'DPoP', 'DPoP']);
    const proofs = proofsAt(s, '/mcp').slice(1).map(decodePayload);
    // Nonces are kept per origin, and here the authorization server shares the resource's origin.
    expect(proofs.map((p) => p.nonce)).toEqual([AS_NONCE, RS_NONCE, RS_NONCE]);
    expect(new Set(proofs.map((p) => p.jti)).size).toBe(3);
    expect(proofs.every((p) => p.ath === sha256('dpop-1') && p.htm === 'POST')).toBe(true);
    // The caller's own headers travel with the proof.
    expect(mcp[3]?.headers['mcp-protocol-version']).toBe('2026-07-28');
  });

  it('A-C3: signs with the key pair the host gives (so a persisted key keeps its tokens usable)', async () => {
    const s = await start({ algs: ['ES256'] });
    const keyPair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    await client({ dpop: { keyPair } })(`${s.base}/mcp`, post);
    const header = decodeProtectedHeader(proofsAt(s, '/token')[0] ?? '');
    expect(await calculateJwkThumbprint(header.jwk as JWK)).toBe(
      await calculateJwkThumbprint(await exportJWK(keyPair.publicKey)),
    );
  });

  it('A-C3: uses Bearer when the authorization server does not offer DPoP for the key’s algorithm, or DPoP is off', async () => {
    for (const [algs, dpop] of [
      [undefined, undefined],
      [['RS256'], undefined],
      [['ES256'], false],
    ] as const) {
      const s = await start({ algs: algs === undefined ? undefined : [...algs] });
      const response = await client({ dpop })(`${s.base}/mcp`, post);
      expect(await response.json()).toEqual({ ok: 'bearer' });
      expect(proofsAt(s, '/token')).toEqual([undefined]);
      await s.close();
      servers = undefined;
    }
  });

  it('A-C3: fails clearly on a malformed DPoP-Nonce from the token endpoint, without a second token request', async () => {
    const s = await start({ asNonce: 'bad "nonce"', algs: ['ES256'] });
    const failure = await client()(`${s.base}/mcp`, post).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OAuthFlowError);
    expect((failure as OAuthFlowError).code).toBe('dpop');
    expect((failure as Error).message).toContain(`The token endpoint of ${s.base} asked for a DPoP nonce`);
    expect((failure as Error).message).toContain('malformed DPoP-Nonce "bad \\"nonce\\""');
    expect(proofsAt(s, '/token')).toHaveLength(1);
  });

  it('A-C3: fails clearly when the MCP server asks for a nonce without sending one', async () => {
    const s = await start({ rsNonce: '', algs: ['ES256'] });
    const failure = await client()(`${s.base}/mcp`, post).catch((error: unknown) => error);
    expect((failure as OAuthFlowError).code).toBe('dpop');
    expect((failure as Error).message).toBe(
      `The MCP server ${s.base}/mcp asked for a DPoP nonce (use_dpop_nonce) but sent no DPoP-Nonce header`,
    );
  });
});

function decodePayload(proof: string | undefined): Record<string, unknown> {
  const part = (proof ?? '').split('.')[1] ?? '';
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}
