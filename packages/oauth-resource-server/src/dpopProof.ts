/**
 * DPoP-bound access tokens at the resource server (RFC 9449 section 7): a token whose `cnf.jkt` binds it to a key is
 * accepted only as `Authorization: DPoP <token>` with a `DPoP` proof signed by that key, for this request's method and
 * URL, fresh, not replayed, and naming the token (`ath`). jose verifies the proof's signature and times.
 */
import { base64url, calculateJwkThumbprint, decodeProtectedHeader, importJWK, type JWK, jwtVerify } from 'jose';
import { TokenRejectedError } from './jwtVerifier.js';

/** Proof algorithms accepted (asymmetric only). */
const ALGORITHMS = ['ES256', 'ES384', 'EdDSA', 'Ed25519', 'RS256', 'PS256'];
/** How old a proof may be (its `iat`), in seconds. */
const MAX_AGE_SECONDS = 300;
/** Most proof ids remembered against replay; the oldest go first (each is only valid for `MAX_AGE_SECONDS`). */
const MAX_REMEMBERED = 10_000;

/** What a proof is checked against. */
export interface DpopCheck {
  /** The DPoP proof JWT (the `DPoP` header). */
  readonly proof: string;
  /** The request's method. */
  readonly method: string;
  /** The URLs the proof's `htu` may name (this request's URL, and the resource's canonical one). */
  readonly urls: readonly string[];
  /** The access token presented with it. */
  readonly accessToken: string;
  /** The thumbprint the token is bound to (`cnf.jkt`). */
  readonly jkt: string;
}

/** Remembers proof ids (`jti`) for {@link MAX_AGE_SECONDS}, to refuse a replayed proof. */
export class DpopReplayGuard {
  readonly #seen = new Map<string, number>();

  /** True the first time `jti` is seen within its validity; false for a replay. */
  accept(jti: string, now = Date.now()): boolean {
    for (const [old, until] of this.#seen) {
      if (until > now && this.#seen.size < MAX_REMEMBERED) break;
      this.#seen.delete(old);
    }
    if (this.#seen.has(jti)) return false;
    this.#seen.set(jti, now + MAX_AGE_SECONDS * 1000);
    return true;
  }
}

/** The `htu` form of a URL: no query, no fragment. */
function htuOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return undefined;
  }
}

const refuse = (message: string, cause?: unknown) =>
  new TokenRejectedError(`DPoP proof refused: ${message}`, cause === undefined ? undefined : { cause });

/** Verifies a DPoP proof for a bound token; rejects with {@link TokenRejectedError} saying why. */
export async function verifyDpopProof(check: DpopCheck, replays: DpopReplayGuard): Promise<void> {
  let jwk: JWK;
  let payload: Record<string, unknown>;
  try {
    const header = decodeProtectedHeader(check.proof);
    if (header.typ !== 'dpop+jwt' || typeof header.alg !== 'string' || header.jwk === undefined) {
      throw refuse('not a dpop+jwt with an embedded public key');
    }
    jwk = header.jwk as JWK;
    if ('d' in jwk) throw refuse('the embedded key is a private key');
    const key = await importJWK(jwk, header.alg);
    ({ payload } = await jwtVerify(check.proof, key, {
      typ: 'dpop+jwt',
      algorithms: ALGORITHMS,
      maxTokenAge: MAX_AGE_SECONDS,
      clockTolerance: 30,
    }));
  } catch (error) {
    throw error instanceof TokenRejectedError ? error : refuse('invalid signature or claims', error);
  }
  if (payload.htm !== check.method) throw refuse(`htm is not ${check.method}`);
  const htu = typeof payload.htu === 'string' ? htuOf(payload.htu) : undefined;
  if (htu === undefined || !check.urls.some((url) => htuOf(url) === htu)) throw refuse('htu is not this resource');
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(check.accessToken)));
  if (payload.ath !== base64url.encode(digest)) throw refuse('ath does not match the access token');
  if ((await calculateJwkThumbprint(jwk)) !== check.jkt) throw refuse('signed by another key than the token names');
  if (typeof payload.jti !== 'string' || !replays.accept(payload.jti)) throw refuse('missing or replayed jti');
}
