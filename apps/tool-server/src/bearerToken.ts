import { timingSafeEqual } from 'node:crypto';

/** The principal of a caller that presented the configured token (tasks are bound to it). */
export const TOKEN_PRINCIPAL = 'token-holder';

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
