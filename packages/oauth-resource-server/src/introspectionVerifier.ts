import type { JWTPayload } from 'jose';
import { AnswerCache, type IntrospectionCacheOptions } from './introspectionCache.js';
import { principalOf, TokenRejectedError, type VerifiedToken } from './jwtVerifier.js';

/** Options of {@link createIntrospectionVerifier}. */
export interface IntrospectionVerifierOptions {
  /** The authorization server's RFC 7662 `introspection_endpoint`. */
  readonly introspectionEndpoint: string | URL;
  /** The issuer the tokens must come from; an answer naming another `iss` is refused. */
  readonly issuer: string;
  /** This resource's identifier; the answer's `aud` must contain it (RFC 8707). */
  readonly audience: string;
  /** This resource server's client id at the authorization server (sent with HTTP Basic, RFC 7662 section 2.1). */
  readonly clientId: string;
  /** Its client secret. */
  readonly clientSecret: string;
  /** Deadline for one introspection call, in milliseconds. @default 5000 */
  readonly timeoutMs?: number | undefined;
  /** Leeway for `exp`/`nbf`, in seconds. @default 30 */
  readonly clockToleranceSeconds?: number | undefined;
  /** The fetch used to call the endpoint. @default globalThis.fetch */
  readonly fetch?: typeof fetch | undefined;
  /**
   * Reuse of introspection answers, so not every request costs a call to the authorization server: an accepted
   * token's answer for up to `maxTtlMs` (never past its `exp`), a refused one's for `negativeTtlMs`; an endpoint
   * that fails or hangs is asked again next time. `false` asks on every request. @default the defaults of
   * {@link IntrospectionCacheOptions}
   */
  readonly cache?: IntrospectionCacheOptions | false | undefined;
}

type Answer = JWTPayload & { active?: unknown };

/**
 * Creates a verifier of opaque access tokens by RFC 7662 token introspection: the authorization server says
 * whether the token is active, for whom and for what. The answer must be active, name this resource in `aud`,
 * carry a `sub`, come from the configured issuer (when it names one) and not be past `exp`; an endpoint that does
 * not answer in time refuses the token with a clear reason. Answers are cached (see
 * {@link IntrospectionVerifierOptions.cache}); each use re-checks the answer against the clock.
 */
export function createIntrospectionVerifier(
  options: IntrospectionVerifierOptions,
): (token: string) => Promise<VerifiedToken> {
  const leeway = options.clockToleranceSeconds ?? 30;
  const introspect = introspector(options);
  const cache = options.cache === false ? undefined : (options.cache ?? {});
  if (cache === undefined) return async (token) => verifiedFrom(await introspect(token), options, leeway);
  const answers = new AnswerCache<Answer>(cache.maxEntries ?? 1000);
  const maxTtlMs = cache.maxTtlMs ?? 60_000;
  const negativeTtlMs = cache.negativeTtlMs ?? 5000;
  const ttlOf = (answer: Answer): number => {
    try {
      verifiedFrom(answer, options, leeway);
    } catch {
      return negativeTtlMs;
    }
    return typeof answer.exp === 'number' ? Math.min(maxTtlMs, answer.exp * 1000 - Date.now()) : maxTtlMs;
  };
  return async (token) => verifiedFrom(await answers.get(token, () => introspect(token), ttlOf), options, leeway);
}

/** One RFC 7662 call per token; rejects (never cached) when the endpoint fails, hangs or answers garbage. */
function introspector(options: IntrospectionVerifierOptions): (token: string) => Promise<Answer> {
  const doFetch = options.fetch ?? fetch;
  const basic = btoa(`${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`);
  return async (token) => {
    let response: Response;
    try {
      response = await doFetch(String(options.introspectionEndpoint), {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
        signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
      });
    } catch (cause) {
      const timedOut = cause instanceof Error && cause.name === 'TimeoutError';
      throw new TokenRejectedError(
        timedOut ? 'The introspection endpoint did not answer in time' : 'The introspection endpoint is unreachable',
        { cause },
      );
    }
    return readAnswer(response);
  };
}

async function readAnswer(response: Response): Promise<Answer> {
  if (!response.ok) {
    await response.body?.cancel();
    throw new TokenRejectedError(`The introspection endpoint answered HTTP ${response.status}`);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new TokenRejectedError('The introspection endpoint answered something other than a JSON object');
  return body as Answer;
}

function verifiedFrom(answer: Answer, options: IntrospectionVerifierOptions, leeway: number): VerifiedToken {
  if (answer.active !== true) throw new TokenRejectedError('The access token is not active');
  if (answer.iss !== undefined && answer.iss !== options.issuer)
    throw new TokenRejectedError('The access token\'s "iss" claim is not accepted');
  const audiences = typeof answer.aud === 'string' ? [answer.aud] : Array.isArray(answer.aud) ? answer.aud : [];
  if (!audiences.includes(options.audience))
    throw new TokenRejectedError('The access token\'s "aud" claim is not accepted');
  if (typeof answer.sub !== 'string' || answer.sub === '')
    throw new TokenRejectedError('The access token names no subject');
  const now = Date.now() / 1000;
  if (typeof answer.exp === 'number' && answer.exp + leeway <= now)
    throw new TokenRejectedError('The access token has expired');
  if (typeof answer.nbf === 'number' && answer.nbf - leeway > now)
    throw new TokenRejectedError('The access token is not valid yet');
  const scope = typeof answer.scope === 'string' ? answer.scope : '';
  return {
    principal: principalOf(options.issuer, answer.sub),
    subject: answer.sub,
    issuer: options.issuer,
    scopes: scope.split(/\s+/).filter((s) => s !== ''),
    claims: answer,
  };
}

/** RFC 6749 section 2.3.1: client id and secret are form-encoded before Basic encoding. */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}
