import { OAuthFlowError } from './errors.js';
import { type FetchLike, getJson } from './http.js';

/** The fields of an RFC 9728 protected-resource metadata document that the flow uses. */
export interface ResourceMetadata {
  /** The protected resource's identifier, checked against the MCP server's URL. */
  readonly resource: string;
  /** The issuers of the authorization servers that serve it. */
  readonly authorizationServers: readonly string[];
  /** The scopes the resource lists, when it lists any. */
  readonly scopesSupported?: readonly string[] | undefined;
  /** True when no document was found and the server's origin stands in for the authorization server (2025-03-26). */
  readonly legacy: boolean;
}

/** The well-known URLs to try, in the spec's order: path-aware first, then the root. */
export function resourceMetadataUrls(server: URL, fromChallenge: string | undefined): URL[] {
  const urls: URL[] = [];
  if (fromChallenge !== undefined) urls.push(new URL(fromChallenge, server));
  const path = server.pathname.replace(/\/$/, '');
  if (path !== '') urls.push(new URL(`/.well-known/oauth-protected-resource${path}`, server.origin));
  urls.push(new URL('/.well-known/oauth-protected-resource', server.origin));
  return urls;
}

/**
 * Finds the protected-resource metadata of `server` (RFC 9728 section 3), checks that it describes this server
 * (RFC 9728 section 3.3), and falls back to the server's origin as authorization server when none is published.
 */
export async function discoverResourceMetadata(
  fetchFn: FetchLike,
  server: URL,
  fromChallenge: string | undefined,
  timeoutMs: number,
): Promise<ResourceMetadata> {
  for (const url of resourceMetadataUrls(server, fromChallenge)) {
    const found = await getJson(fetchFn, url, timeoutMs).catch((cause: unknown) => {
      throw new OAuthFlowError('metadata', `Cannot read protected-resource metadata at ${url.href}`, { cause });
    });
    if (found === undefined) continue;
    return checkResourceMetadata(found.body, url, server);
  }
  return { resource: canonicalResource(server), authorizationServers: [server.origin], legacy: true };
}

function checkResourceMetadata(body: unknown, url: URL, server: URL): ResourceMetadata {
  const doc = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const servers = doc.authorization_servers;
  if (typeof doc.resource !== 'string' || !Array.isArray(servers) || !servers.every((s) => typeof s === 'string')) {
    throw new OAuthFlowError(
      'metadata',
      `Protected-resource metadata at ${url.href} is malformed: it needs "resource" and "authorization_servers"`,
    );
  }
  if (!resourceCovers(doc.resource, server)) {
    throw new OAuthFlowError(
      'resource_mismatch',
      `Protected-resource metadata at ${url.href} is for ${doc.resource}, not for ${server.href}; refusing to send it tokens`,
    );
  }
  const scopes = doc.scopes_supported;
  return {
    resource: doc.resource,
    authorizationServers: servers as string[],
    scopesSupported: Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : undefined,
    legacy: false,
  };
}

/** The server URL as an RFC 8707 resource indicator: no fragment, no trailing slash on a bare origin. */
export function canonicalResource(server: URL): string {
  const url = new URL(server.href);
  url.hash = '';
  return url.pathname === '/' && url.search === '' ? url.origin : url.href;
}

/** True when `resource` names `server` or a path above it on the same origin. */
function resourceCovers(resource: string, server: URL): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.origin !== server.origin) return false;
  const base = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  const path = server.pathname.endsWith('/') ? server.pathname : `${server.pathname}/`;
  return path.startsWith(base);
}
