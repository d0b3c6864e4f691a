import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';

/** A verified access token: who it is for, what it allows. */
export interface VerifiedToken {
  /** The task-binding identity: issuer and subject together, so two issuers' `sub` values never collide. */
  readonly principal: string;
  /** The token's `sub`. */
  readonly subject: string;
  /** The token's `iss`. */
  readonly issuer: string;
  /** The scopes granted (`scope`, split on spaces). */
  readonly scopes: readonly string[];
  /** Every claim of the verified token. */
  readonly claims: JWTPayload;
}

/** Why a token was refused; `message` is safe to log and to send as `error_description`. */
export class TokenRejectedError extends Error {
  /** A refusal saying why; `cause` keeps the verifier's own error. */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TokenRejectedError';
  }
}

/** Options of {@link createJwtVerifier}. */
export interface JwtVerifierOptions {
  /** The issuer the tokens must come from (`iss`). */
  readonly issuer: string;
  /** This resource's identifier; the token's `aud` must contain it (RFC 8707, RFC 9068). */
  readonly audience: string;
  /** Where the issuer publishes its keys. */
  readonly jwksUri: string | URL;
  /** Accepted signature algorithms; `none` and HMAC are never accepted. @default ['RS256', 'ES256', 'PS256', 'EdDSA'] */
  readonly algorithms?: readonly string[] | undefined;
  /** Leeway for `exp`/`nbf`, in seconds. @default 30 */
  readonly clockToleranceSeconds?: number | undefined;
  /** Deadline for fetching the JWKS, in milliseconds. @default 5000 */
  readonly jwksTimeoutMs?: number | undefined;
  /** Least time between two JWKS fetches (an unknown `kid` triggers one), in milliseconds. @default 30000 */
  readonly jwksCooldownMs?: number | undefined;
}

/** The JWT principal string for an issuer and subject. */
export function principalOf(issuer: string, subject: string): string {
  return JSON.stringify([issuer, subject]);
}

/**
 * Creates a verifier of JWT access tokens. jose's remote key set caches the JWKS and refetches it (rate-limited)
 * when a token names an unknown `kid`, which is how key rotation is picked up without a restart.
 */
export function createJwtVerifier(options: JwtVerifierOptions): (token: string) => Promise<VerifiedToken> {
  const algorithms = (options.algorithms ?? ['RS256', 'ES256', 'PS256', 'EdDSA']).filter(
    (alg) => alg !== 'none' && !alg.startsWith('HS'),
  );
  const keys = createRemoteJWKSet(new URL(String(options.jwksUri)), {
    timeoutDuration: options.jwksTimeoutMs ?? 5000,
    cooldownDuration: options.jwksCooldownMs ?? 30_000,
  });
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms,
        clockTolerance: options.clockToleranceSeconds ?? 30,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (cause) {
      throw new TokenRejectedError(describe(cause), { cause });
    }
    const subject = payload.sub as string;
    const scope = typeof payload.scope === 'string' ? payload.scope : '';
    return {
      principal: principalOf(options.issuer, subject),
      subject,
      issuer: options.issuer,
      scopes: scope.split(/\s+/).filter((s) => s !== ''),
      claims: payload,
    };
  };
}

function describe(cause: unknown): string {
  if (cause instanceof errors.JWTExpired) return 'The access token has expired';
  if (cause instanceof errors.JWTClaimValidationFailed)
    return `The access token's "${cause.claim}" claim is not accepted`;
  if (cause instanceof errors.JWKSNoMatchingKey)
    return 'The access token is signed with a key the issuer does not publish';
  if (cause instanceof errors.JWKSTimeout) return "The issuer's key set did not answer in time";
  if (cause instanceof errors.JOSEAlgNotAllowed) return "The access token's signature algorithm is not accepted";
  if (cause instanceof errors.JWSSignatureVerificationFailed) return "The access token's signature is invalid";
  if (cause instanceof errors.JWSInvalid || cause instanceof errors.JWTInvalid)
    return 'The access token is not a valid JWT';
  return `The access token was refused (${cause instanceof Error ? cause.message : String(cause)})`;
}
