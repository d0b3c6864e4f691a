import type { createIntrospectionVerifier } from './introspectionVerifier.js';
import type { createJwtVerifier, VerifiedToken } from './jwtVerifier.js';

/** A request as both HTTP fronts hand it to `authenticate`: node's `IncomingMessage` or a Fetch `Request`. */
export type HeaderCarrier =
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
    };

function authorizationOf(request: HeaderCarrier): string | undefined {
  const headers = request.headers;
  if (typeof headers.get === 'function')
    return (headers as { get(name: string): string | null }).get('authorization') ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>).authorization;
  return Array.isArray(value) ? value[0] : value;
}

/** Options of {@link bearerAuthenticate}. */
export interface BearerAuthenticateOptions {
  /**
   * Verifies a presented access token (e.g. {@link createJwtVerifier}, or {@link createIntrospectionVerifier} for
   * opaque tokens); rejects when it is not acceptable.
   */
  readonly verify: (token: string) => Promise<VerifiedToken>;
  /** Told why a presented token was refused (the request still gets a plain 401). */
  readonly onRejected?: ((error: unknown) => void) | undefined;
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
 * valid token, `undefined` (answered 401 with the configured challenge) for a missing or refused one.
 */
export function bearerAuthenticate(
  options: BearerAuthenticateOptions,
): (request: HeaderCarrier) => Promise<BearerIdentity | undefined> {
  return async (request) => {
    const match = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(authorizationOf(request) ?? '');
    if (match?.[1] === undefined) return undefined;
    try {
      const { principal, scopes } = await options.verify(match[1]);
      return { principal, scopes };
    } catch (error) {
      options.onRejected?.(error);
      return undefined;
    }
  };
}
