import { base64url, calculateJwkThumbprint, EmbeddedJWK, jwtVerify } from 'jose';
import type { DPoPReplayGuard } from './dpopReplayGuard.js';
import { TokenRejectedError } from './jwtVerifier.js';

/** Asymmetric algorithms only: RFC 9449 section 11.6 rules out `none` and MACs for proofs. */
const PROOF_ALGORITHMS = [
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
  'RS256',
  'RS384',
  'RS512',
  'EdDSA',
  'Ed25519',
];

/** How far a proof's `iat` may be from now, in seconds (the MCP DPoP profile's window). */
const PROOF_WINDOW_SECONDS = 300;

/** What a presented DPoP-bound token is checked against. */
export interface DPoPPresentation {
  /** The `DPoP` header's proof JWT, if any. */
  readonly proof: string | undefined;
  /** The request's HTTP method (the proof's `htm`). */
  readonly method: string;
  /** The endpoint URL the client called (the proof's `htu`, compared without query and fragment). */
  readonly url: string | URL;
  /** The access token (the proof's `ath` is its SHA-256, base64url). */
  readonly token: string;
  /** The token's `cnf.jkt`: the thumbprint of the key it is bound to. */
  readonly jkt: string;
  /** Remembers accepted proofs; a proof it has seen is refused (none: replays are not tracked). */
  readonly replay?: DPoPReplayGuard | undefined;
}

/**
 * Checks a DPoP proof for a DPoP-bound access token (RFC 9449 section 4.3 and 7): a `dpop+jwt` signed with an
 * asymmetric algorithm by the key in its header, that key being the one the token is bound to, for this method and
 * endpoint, carrying the token's hash, issued within five minutes of now, and not seen before by `replay`. Rejects
 * with the reason.
 */
export async function verifyDPoPProof(presented: DPoPPresentation): Promise<void> {
  if (presented.proof === undefined) throw new TokenRejectedError('The DPoP-bound token came without a DPoP proof');
  let verified: Awaited<ReturnType<typeof jwtVerify>>;
  try {
    verified = await jwtVerify(presented.proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: PROOF_ALGORITHMS });
  } catch (cause) {
    throw new TokenRejectedError('The DPoP proof is not a valid signed dpop+jwt', { cause });
  }
  const { payload, protectedHeader } = verified;
  if (protectedHeader.jwk === undefined || (await calculateJwkThumbprint(protectedHeader.jwk)) !== presented.jkt)
    throw new TokenRejectedError('The DPoP proof is signed with another key than the token is bound to');
  if (payload.htm !== presented.method) throw new TokenRejectedError('The DPoP proof names another HTTP method');
  if (typeof payload.htu !== 'string' || !sameTarget(payload.htu, presented.url))
    throw new TokenRejectedError('The DPoP proof names another URL');
  if (typeof payload.iat !== 'number' || Math.abs(Date.now() / 1000 - payload.iat) > PROOF_WINDOW_SECONDS)
    throw new TokenRejectedError('The DPoP proof is too old or from the future');
  if (typeof payload.jti !== 'string' || payload.jti === '') throw new TokenRejectedError('The DPoP proof has no jti');
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(presented.token)));
  if (payload.ath !== base64url.encode(hash))
    throw new TokenRejectedError('The DPoP proof is for another access token');
  // Last, so only a proof that passed every check is remembered.
  const expiresAt = (payload.iat + PROOF_WINDOW_SECONDS) * 1000;
  if (
    presented.replay !== undefined &&
    !(await presented.replay.firstUse(`${presented.jkt}.${payload.jti}`, expiresAt))
  )
    throw new TokenRejectedError('The DPoP proof was used before');
}

/** RFC 9449 section 4.3: `htu` is compared without query and fragment, after URL normalization. */
function sameTarget(htu: string, url: string | URL): boolean {
  if (!URL.canParse(htu)) return false;
  const strip = (value: string | URL) => {
    const parsed = new URL(String(value));
    return `${parsed.origin}${parsed.pathname}`;
  };
  return strip(htu) === strip(url);
}
