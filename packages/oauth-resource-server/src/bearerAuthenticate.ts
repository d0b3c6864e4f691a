import { DpopReplayGuard, verifyDpopProof } from './dpopProof.js';
import type { createIntrospectionVerifier } from './introspectionVerifier.js';
import { type createJwtVerifier, TokenRejectedError, type VerifiedToken } from './jwtVerifier.js';
import { bearerChallenge, type resourceMetadataUrl } from './metadata.js';

/** A request as both HTTP fronts hand it to `authenticate`: node's `IncomingMessage` or a Fetch `Request`. */
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
  /** The request's method (checked against a DPoP proof's `htm`). */
  readonly method?: string | undefined;
  /** Its URL: absolute (Fetch) or the path (node; the `Host` header completes it), for a DPoP proof's `htu`. */
  readonly url?: string | undefined;
};

function headerOf(request: HeaderCarrier, name: string): string | undefined {
  const headers = request.headers;
  if (typeof headers.get === 'function')
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The URLs a DPoP proof of `request` may name: the request's own, and the resource's canonical identifier. */
function requestUrls(request: HeaderCarrier, resource: string | undefined): string[] {
  const urls = resource === undefined ? [] : [resource];
  const url = request.url ?? '';
  if (/^https?:\/\//.test(url)) urls.push(url);
  else if (url.startsWith('/')) urls.push(`http://${headerOf(request, 'host') ?? ''}${url}`);
  return urls;
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
   * This resource's identifier (its canonical URL): a DPoP proof's `htu` may name it (besides the request's own URL,
   * which behind a proxy may differ). DPoP-bound tokens (`cnf.jkt`) are accepted with the `DPoP` scheme only.
   */
  readonly resource?: string | URL | undefined;
}

/** A refused token, answered 401 with this challenge (the HTTP transports' `AuthenticationRefusal`). */
export interface BearerRefusal {
  /** The `WWW-Authenticate` value, `error="invalid_token"` with the reason. */
  readonly challenge: string;
}

/** Who presented a valid token, as the HTTP transports' `authenticate` hook answers it. */
export interface BearerIdentity {
  /** The task-binding identity (issuer + subject). */
  readonly principal: string;
  /** The scopes the token grants; tools' required scopes are checked against them (403 `insufficient_scope`). */
  readonly scopes: readonly string[];
}

/**
 * The HTTP transports' `authenticate` hook for bearer tokens: the principal (issuer + subject) and scopes of a
 * valid token; `undefined` (answered 401 with the configured challenge) for a missing one, and for a refused one
 * too unless `resourceMetadataUrl` is given, then a {@link BearerRefusal} saying why.
 */
export function bearerAuthenticate(
  options: BearerAuthenticateOptions,
): (request: HeaderCarrier) => Promise<BearerIdentity | BearerRefusal | undefined> {
  const replays = new DpopReplayGuard();
  return async (request) => {
    const match = /^(Bearer|DPoP)\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(headerOf(request, 'authorization') ?? '');
    if (match?.[2] === undefined) return undefined;
    const token = match[2];
    try {
      const verified = await options.verify(token);
      const jkt = (verified.claims.cnf as { jkt?: unknown } | undefined)?.jkt;
      if (typeof jkt === 'string') {
        // A DPoP-bound token proves possession of its key on every request (RFC 9449 section 7.1).
        if (match[1]?.toLowerCase() !== 'dpop') throw new TokenRejectedError('The access token is DPoP-bound');
        const proof = headerOf(request, 'dpop');
        if (proof === undefined) throw new TokenRejectedError('The DPoP proof header is missing');
        const urls = requestUrls(request, options.resource === undefined ? undefined : String(options.resource));
        await verifyDpopProof({ proof, method: request.method ?? 'POST', urls, accessToken: token, jkt }, replays);
      }
      return { principal: verified.principal, scopes: verified.scopes };
    } catch (error) {
      options.onRejected?.(error);
      if (options.resourceMetadataUrl === undefined) return undefined;
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
