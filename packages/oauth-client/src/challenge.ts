/** The parameters of a `Bearer` challenge in a `WWW-Authenticate` header (RFC 6750 section 3, RFC 9728 section 5.1). */
export interface BearerChallenge {
  /** The error code, e.g. `invalid_token` or `insufficient_scope`. */
  readonly error?: string | undefined;
  /** The scopes the resource asks for, space-separated. */
  readonly scope?: string | undefined;
  /** The URL of the resource's protected-resource metadata (`resource_metadata`, RFC 9728). */
  readonly resourceMetadata?: string | undefined;
}

const PARAM = /([a-zA-Z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g;

/**
 * Reads the challenge of `scheme` (`Bearer` unless told, or `DPoP`, which carries the same parameters, RFC 9449
 * section 7.1) in a `WWW-Authenticate` header; other schemes' parameters are ignored. Returns `undefined` when
 * there is no challenge of that scheme.
 */
export function parseBearerChallenge(header: string | null, scheme = 'Bearer'): BearerChallenge | undefined {
  if (header === null) return undefined;
  // An auth-scheme is a token (RFC 9110 section 11.1); anything else would not match a header anyway.
  const name = scheme.toLowerCase().replace(/[^a-z0-9!#$%&'*+.^_`|~-]/g, '');
  const start = header.toLowerCase().search(new RegExp(`(^|[\\s,])${name}(\\s|$)`));
  if (start < 0) return undefined;
  const rest = header
    .slice(start)
    .replace(/^[\s,]*/, '')
    .slice(name.length);
  // The scheme's parameters end where the next scheme (a bare token followed by a space and a param) begins.
  const next = rest.search(/,\s*[a-zA-Z][\w-]*\s+[a-zA-Z][\w-]*\s*=/);
  const params: Record<string, string> = {};
  for (const match of (next < 0 ? rest : rest.slice(0, next)).matchAll(PARAM)) {
    const [, key, quoted, bare] = match;
    if (key !== undefined) params[key.toLowerCase()] = quoted?.replace(/\\(.)/g, '$1') ?? bare ?? '';
  }
  return { error: params.error, scope: params.scope, resourceMetadata: params.resource_metadata };
}
