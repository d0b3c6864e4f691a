/** What a protected resource publishes about itself (RFC 9728 section 2). */
export interface ResourceMetadataOptions {
  /** The resource identifier: the MCP endpoint's URL, as clients put it in the RFC 8707 `resource` parameter. */
  readonly resource: string;
  /** Issuer URLs of the authorization servers whose tokens this resource accepts. */
  readonly authorizationServers: readonly string[];
  /** The scopes this resource understands (`scopes_supported`). */
  readonly scopesSupported?: readonly string[] | undefined;
  /** A human-readable name (`resource_name`). */
  readonly resourceName?: string | undefined;
  /** A page for developers (`resource_documentation`). */
  readonly resourceDocumentation?: string | undefined;
}

/** The RFC 9728 metadata document, with the spec's field names. */
export function resourceMetadataDocument(options: ResourceMetadataOptions): Record<string, unknown> {
  return {
    resource: options.resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ['header'],
    ...(options.scopesSupported === undefined ? {} : { scopes_supported: [...options.scopesSupported] }),
    ...(options.resourceName === undefined ? {} : { resource_name: options.resourceName }),
    ...(options.resourceDocumentation === undefined ? {} : { resource_documentation: options.resourceDocumentation }),
  };
}

/** The path-aware well-known URL of a resource's metadata (RFC 9728 section 3.1). */
export function resourceMetadataUrl(resource: string): URL {
  const url = new URL(resource);
  const path = url.pathname.replace(/\/$/, '');
  return new URL(`/.well-known/oauth-protected-resource${path}`, url.origin);
}

/** Parameters of a `Bearer` challenge (RFC 6750 section 3). */
export interface ChallengeOptions {
  /** Where this resource's metadata document is served (`resource_metadata`). */
  readonly resourceMetadataUrl: string | URL;
  /** Why the request was refused, when it presented a token. */
  readonly error?: 'invalid_token' | 'insufficient_scope' | 'invalid_request' | undefined;
  /** A sentence for the developer (`error_description`). */
  readonly errorDescription?: string | undefined;
  /** The scopes the request needs, space-separated. */
  readonly scope?: string | undefined;
}

/** The `WWW-Authenticate` value pointing clients at the metadata document (RFC 9728 section 5.1). */
export function bearerChallenge(options: ChallengeOptions): string {
  // A quoted-string (RFC 9110 section 5.6.4): backslash-escape `"` and `\`; a character no header may carry (a
  // control character, or one beyond Latin-1, which node:http refuses) becomes a space.
  const quote = (value: string) => `"${value.replace(/[^\x20-\x7e\x80-\xff]/g, ' ').replace(/["\\]/g, '\\$&')}"`;
  const params = [`resource_metadata=${quote(String(options.resourceMetadataUrl))}`];
  if (options.error !== undefined) params.push(`error=${quote(options.error)}`);
  if (options.errorDescription !== undefined) params.push(`error_description=${quote(options.errorDescription)}`);
  if (options.scope !== undefined) params.push(`scope=${quote(options.scope)}`);
  return `Bearer ${params.join(', ')}`;
}
