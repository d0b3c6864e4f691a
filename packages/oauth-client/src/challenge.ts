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
 * Reads the `Bearer` challenge of a `WWW-Authenticate` header; other schemes' parameters are ignored.
 * Returns `undefined` when there is no Bearer challenge.
 */
export function parseBearerChallenge(header: string | null): BearerChallenge | undefined {
  if (header === null) return undefined;
  const start = header.search(/(^|[\s,])bearer(\s|$)/i);
  if (start < 0) return undefined;
  const rest = header.slice(start).replace(/^[\s,]*bearer/i, '');
  // The Bearer parameters end where the next scheme (a bare token followed by a space and a param) begins.
  const next = rest.search(/,\s*[a-zA-Z][\w-]*\s+[a-zA-Z][\w-]*\s*=/);
  const params: Record<string, string> = {};
  for (const match of (next < 0 ? rest : rest.slice(0, next)).matchAll(PARAM)) {
    const [, name, quoted, bare] = match;
    if (name !== undefined) params[name.toLowerCase()] = quoted?.replace(/\\(.)/g, '$1') ?? bare ?? '';
  }
  return { error: params.error, scope: params.scope, resourceMetadata: params.resource_metadata };
}
