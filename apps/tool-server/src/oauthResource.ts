/** `--auth-issuer`: the server as an OAuth resource server, with tokens from a real authorization server. */
import {
  bearerAuthenticate,
  bearerChallenge,
  createIntrospectionVerifier,
  createJwtVerifier,
  resourceMetadataDocument,
  resourceMetadataUrl,
} from '@mcp-tasks/oauth-resource-server';
import type { Logger } from './logger.js';

/** Where tokens come from and who they must be for. */
export interface OAuthOption {
  /** The authorization server's issuer URL. */
  readonly issuer: string;
  /** This server's public MCP endpoint URL: the tokens' audience and the metadata's `resource`. */
  readonly resource: string;
  /** The issuer's key set; found through the issuer's metadata when absent. */
  readonly jwksUri?: string | undefined;
  /** Check opaque tokens by RFC 7662 introspection at `endpoint`, as client `clientId`, instead of as JWTs. */
  readonly introspection?:
    | { readonly endpoint: string; readonly clientId: string; readonly clientSecret: string }
    | undefined;
}

/** The scopes the tool server's tools may require, published as `scopes_supported`. */
export const TOOL_SERVER_SCOPES: readonly string[] = ['deploy'];

/**
 * The `listen` options that make the endpoint a resource server, alike for Streamable HTTP and the WebSocket
 * binding: the hook, the challenges, the metadata.
 */
export async function oauthListenOptions(auth: OAuthOption, logger: Logger, transport: 'http' | 'ws' = 'http') {
  const verify =
    auth.introspection === undefined
      ? createJwtVerifier({
          issuer: auth.issuer,
          audience: auth.resource,
          jwksUri: auth.jwksUri ?? (await discoverJwksUri(auth.issuer)),
        })
      : createIntrospectionVerifier({
          introspectionEndpoint: auth.introspection.endpoint,
          issuer: auth.issuer,
          audience: auth.resource,
          clientId: auth.introspection.clientId,
          clientSecret: auth.introspection.clientSecret,
        });
  const metadataUrl = resourceMetadataUrl(auth.resource);
  return {
    authenticate: bearerAuthenticate({
      verify,
      // A refused token is answered `error="invalid_token"` with the reason; no token gets the plain challenge.
      resourceMetadataUrl: metadataUrl,
      // DPoP-bound tokens (RFC 9449) are proved against the public endpoint URL.
      endpointUrl: auth.resource,
      onRejected: (error: unknown) =>
        logger.info({ transport, reason: error instanceof Error ? error.message : String(error) }, 'refused a token'),
    }),
    wwwAuthenticate: bearerChallenge({ resourceMetadataUrl: metadataUrl }),
    insufficientScopeChallenge: (scope: string) =>
      bearerChallenge({ resourceMetadataUrl: metadataUrl, error: 'insufficient_scope', scope }),
    documents: {
      [metadataUrl.pathname]: resourceMetadataDocument({
        resource: auth.resource,
        authorizationServers: [auth.issuer],
        scopesSupported: TOOL_SERVER_SCOPES,
      }),
    },
  };
}

async function discoverJwksUri(issuer: string): Promise<string> {
  const base = issuer.replace(/\/$/, '');
  for (const url of [`${base}/.well-known/openid-configuration`, `${base}/.well-known/oauth-authorization-server`]) {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
    if (response?.ok !== true) continue;
    const body = (await response.json().catch(() => ({}))) as { jwks_uri?: unknown };
    if (typeof body.jwks_uri === 'string') return body.jwks_uri;
  }
  throw new Error(`Cannot find the key set of ${issuer}: no metadata with jwks_uri (give --auth-jwks)`);
}
