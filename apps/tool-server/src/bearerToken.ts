import { timingSafeEqual } from 'node:crypto';

/** The principal of a caller that presented the configured token (tasks are bound to it). */
export const TOKEN_PRINCIPAL = 'token-holder';

/**
 * The principal of a caller that presented one of the configured tokens, or undefined for none: the first token's
 * holder is {@link TOKEN_PRINCIPAL}, the n-th (n ≥ 2) `token-holder-n`, so each token sees only its own tasks.
 */
export function principalForToken(tokens: readonly string[], presented: string | undefined): string | undefined {
  let found: string | undefined;
  // Every token is compared (no early return), so timing does not tell which position matched.
  tokens.forEach((token, index) => {
    if (tokenMatches(token, presented) && found === undefined) {
      found = index === 0 ? TOKEN_PRINCIPAL : `${TOKEN_PRINCIPAL}-${index + 1}`;
    }
  });
  return found;
}

/** Compares in constant time, so response timing does not leak how much of a guessed token was right. */
export function tokenMatches(expected: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer <token>` header value, or undefined. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
}
