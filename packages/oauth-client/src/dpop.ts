import * as oauth from 'oauth4webapi';
import { parseBearerChallenge } from './challenge.js';
import { OAuthFlowError } from './errors.js';
import type { FetchLike } from './http.js';

/** DPoP (RFC 9449) settings of {@link withOAuth}: tokens bound to a key the client holds, proven on every request. */
export interface DPoPOptions {
  /**
   * The key pair that signs the proofs (its public key must be extractable). A host that persists DPoP-bound tokens
   * across processes must persist this key too, or a new process gets a new key and must log in again.
   * @default a fresh ES256 (P-256) key pair per wrapper, private key not extractable
   */
  readonly keyPair?: CryptoKeyPair | undefined;
}

/** The proof signer of one wrapper: one key for the token requests and the resource requests it binds. */
export interface DPoPSigner {
  /** The oauth4webapi handle: signs proofs and remembers each origin's last `DPoP-Nonce`. */
  readonly handle: oauth.DPoPHandle;
  /** The JWS algorithm of the key, matched against `dpop_signing_alg_values_supported`. */
  readonly algorithm: string;
}

/** Creates the signer for `options`, generating an ES256 key pair when none is given. */
export async function createDPoPSigner(options: DPoPOptions): Promise<DPoPSigner> {
  const keyPair =
    options.keyPair ??
    ((await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
      'sign',
      'verify',
    ])) as CryptoKeyPair);
  return { handle: oauth.DPoP({}, keyPair), algorithm: jwsAlgorithm(keyPair.privateKey) };
}

/** The JWS `alg` a WebCrypto private key signs with (the names of RFC 7518 and RFC 8037). */
export function jwsAlgorithm(key: CryptoKey): string {
  const algorithm = key.algorithm as { name: string; namedCurve?: string; hash?: { name: string } };
  const bits = algorithm.hash?.name.replace('SHA-', '') ?? '256';
  switch (algorithm.name) {
    case 'ECDSA':
      return { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' }[algorithm.namedCurve ?? ''] ?? 'ES256';
    case 'RSASSA-PKCS1-v1_5':
      return `RS${bits}`;
    case 'RSA-PSS':
      return `PS${bits}`;
    default:
      return 'EdDSA';
  }
}

/** True when the authorization server accepts proofs signed with the signer's algorithm (RFC 9449 section 5.1). */
export function serverAcceptsDPoP(as: oauth.AuthorizationServer, signer: DPoPSigner): boolean {
  return as.dpop_signing_alg_values_supported?.includes(signer.algorithm) === true;
}

/** True when a token endpoint issued a DPoP-bound token (`token_type` `DPoP`, case-insensitive). */
export function isDPoPTokenType(tokenType: string): boolean {
  return tokenType.toLowerCase() === 'dpop';
}

// RFC 9449 section 8.1: nonce = 1*NQCHAR, NQCHAR = %x21 / %x23-5B / %x5D-7E.
const NONCE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * Checks the `DPoP-Nonce` header of a response that asked for a nonce (`use_dpop_nonce`): the retry needs one, so
 * a missing or malformed value is an error naming the server, not a second identical failure.
 */
export function requireNonce(response: Response, where: string): void {
  const nonce = response.headers.get('dpop-nonce');
  if (nonce === null || !NONCE.test(nonce)) {
    const got = nonce === null ? 'no DPoP-Nonce header' : `the malformed DPoP-Nonce ${JSON.stringify(nonce)}`;
    throw new OAuthFlowError('dpop', `${where} asked for a DPoP nonce (use_dpop_nonce) but sent ${got}`);
  }
}

/** True when a resource server's 401 asks for a DPoP nonce (RFC 9449 section 9). */
export function isResourceNonceChallenge(response: Response): boolean {
  if (response.status !== 401) return false;
  return parseBearerChallenge(response.headers.get('www-authenticate'), 'DPoP')?.error === 'use_dpop_nonce';
}

/**
 * Sends a resource request with a DPoP-bound access token: `Authorization: DPoP <token>` and a fresh proof (new
 * `jti`, `htm`, `htu`, `ath`, the origin's last nonce). Everything else of `init` is sent as the caller gave it.
 */
export async function sendWithDPoP(
  base: FetchLike,
  input: string | URL,
  init: RequestInit,
  accessToken: string,
  signer: DPoPSigner,
): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.delete('authorization');
  headers.delete('dpop');
  try {
    return await oauth.protectedResourceRequest(
      accessToken,
      (init.method ?? 'GET').toUpperCase(),
      new URL(String(input)),
      headers,
      null,
      {
        DPoP: signer.handle,
        // The transport, not this wrapper, chose the server URL: plain http is its decision.
        [oauth.allowInsecureRequests]: true,
        [oauth.customFetch]: (url, prepared) => base(url, { ...init, headers: prepared.headers }),
      },
    );
  } catch (error) {
    // oauth4webapi rejects any challenge; the wrapper reads the 401/403 itself.
    if (error instanceof oauth.WWWAuthenticateChallengeError) return error.response;
    throw error;
  }
}
