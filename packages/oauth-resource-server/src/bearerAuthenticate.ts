import { verifyDPoPProof } from './dpopProof.js';
import { createDPoPReplayGuard, type DPoPReplayGuard } from './dpopReplayGuard.js';
import type { createIntrospectionVerifier } from './introspectionVerifier.js';
import { type createJwtVerifier, TokenRejectedError, type VerifiedToken } from './jwtVerifier.js';
import { bearerChallenge, type resourceMetadataUrl } from './metadata.js';

/**
 * A request as the transports hand it to `authenticate`: node's `IncomingMessage` (node:http front, WebSocket
 * upgrade) or a Fetch `Request`.
 */
export type HeaderCarrier = (
  | {
      /** A Fetch `Request`'s headers. */
      readonly headers: {
        /** The header's value, or null when absent. */
        get(name: string): string | null;
      };
    }
  | {
      /** node's `IncomingMessage` headers, by lower-case name. */
      readonly headers: Readonly<Record<string, string | string[] | undefined>>;
    }
) & {
  /** The HTTP method: what a DPoP proof's `htm` must name. */
  readonly method?: string | undefined;
};

function headerOf(request: HeaderCarrier, name: string): string | undefined {
  const headers = request.headers;
  if (typeof headers.get === 'function')
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Options of {@link bearerAuthenticate}. */
export interface BearerAuthenticateOptions {
  /**
   * Verifies a presented access token (e.g. {@link createJwtVerifier}, or {@link createIntrospectionVerifier} for
   * opaque tokens); rejects when it is not acceptable.
   */
  readonly verify: (token: string) => Promise<VerifiedToken>;
  /** Told why a presented token was refused. */
  readonly onRejected?: ((error: unknown) => void) | undefined;
  /**
   * This resource's metadata URL ({@link resourceMetadataUrl}). When given, a presented token that is refused is
   * answered 401 with `error="invalid_token"` and the reason as `error_description` (RFC 6750 section 3.1);
   * without it, with the transport's plain challenge.
   */
  readonly resourceMetadataUrl?: string | URL | undefined;
  /**
   * The endpoint URL clients call (normally the resource identifier, the public URL behind a proxy). A DPoP-bound
   * token (`cnf.jkt`, RFC 9449) is accepted only with the `DPoP` scheme and a valid proof naming this URL as `htu`;
   * without it, DPoP-bound tokens are refused. Plain bearer tokens are unaffected.
   */
  readonly endpointUrl?: string | URL | undefined;
  /**
   * Remembers the DPoP proofs accepted, so a proof replayed within its five-minute window is refused (RFC 9449
   * section 11.1). Default: an in-process {@link createDPoPReplayGuard} of this hook, which catches replays to this
   * instance only; give several instances one shared guard to catch replays across them.
   */
  readonly dpopReplayGuard?: DPoPReplayGuard | undefined;
}

/** A refused token, answered 401 with this challenge (the transports' `AuthenticationRefusal`). */
export interface BearerRefusal {
  /** The `WWW-Authenticate` value, `error="invalid_token"` with the reason. */
  readonly challenge: string;
}

/** Who presented a valid token, as the transports' `authenticate` hook answers it. */
export interface BearerIdentity {
  /** The task-binding identity (issuer + subject). */
  readonly principal: string;
  /** The scopes the token grants; tools' required scopes are checked against them (403 `insufficient_scope`). */
  readonly scopes: readonly string[];
}

/**
 * The `authenticate` hook of the HTTP transports and of the WebSocket binding's upgrade for access tokens: the
 * principal (issuer + subject) and scopes of a valid token; `null` (refused with the transport's plain challenge:
 * 401 on HTTP, a refused upgrade on WebSocket) for a missing one, and for a refused one too unless
 * `resourceMetadataUrl` is given, then a {@link BearerRefusal} saying why. The token is the one passed as `token`
 * (the WebSocket binding's, which may come from a browser's subprotocol entry), else the `Authorization` header's,
 * with the `Bearer` scheme or, for a DPoP-bound token, `DPoP` with its proof (see `endpointUrl`).
 */
export function bearerAuthenticate(
  options: BearerAuthenticateOptions,
): (request: HeaderCarrier, token?: string) => Promise<BearerIdentity | BearerRefusal | null> {
  const replay = options.dpopReplayGuard ?? createDPoPReplayGuard();
  return async (request, token) => {
    const presented = token === undefined ? presentedToken(headerOf(request, 'authorization')) : { dpop: false, token };
    if (presented === undefined) return null;
    try {
      const verified = await options.verify(presented.token);
      await checkBinding(verified, presented, request, options.endpointUrl, replay);
      return { principal: verified.principal, scopes: verified.scopes };
    } catch (error) {
      options.onRejected?.(error);
      if (options.resourceMetadataUrl === undefined) return null;
      const reason = error instanceof TokenRejectedError ? error.message : 'The access token was refused';
      return {
        challenge: bearerChallenge({
          resourceMetadataUrl: options.resourceMetadataUrl,
          error: 'invalid_token',
          errorDescription: reason,
        }),
      };
    }
  };
}

/** The token of an `Authorization` header with the `Bearer` or `DPoP` scheme. */
function presentedToken(authorization: string | undefined): { dpop: boolean; token: string } | undefined {
  const match = /^(Bearer|DPoP)\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(authorization ?? '');
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  return { dpop: match[1].toLowerCase() === 'dpop', token: match[2] };
}

/**
 * RFC 9449 section 7: a DPoP-bound token (its `cnf.jkt`) only with the `DPoP` scheme and a proof of its key; the
 * `DPoP` scheme only for such a token (section 7.2: no downgrade to bearer use of a bound token).
 */
async function checkBinding(
  verified: VerifiedToken,
  presented: { dpop: boolean; token: string },
  request: HeaderCarrier,
  endpointUrl: string | URL | undefined,
  replay: DPoPReplayGuard,
): Promise<void> {
  const cnf = verified.claims.cnf as { jkt?: unknown } | undefined;
  const jkt = typeof cnf?.jkt === 'string' ? cnf.jkt : undefined;
  if (jkt === undefined) {
    if (presented.dpop) throw new TokenRejectedError('The DPoP scheme was used with a token that is not DPoP-bound');
    return;
  }
  if (!presented.dpop) throw new TokenRejectedError('The DPoP-bound token was presented as a bearer token');
  if (endpointUrl === undefined) throw new TokenRejectedError('This server does not accept DPoP-bound tokens');
  const proof = headerOf(request, 'dpop');
  await verifyDPoPProof({ proof, method: request.method ?? '', url: endpointUrl, token: presented.token, jkt, replay });
}
