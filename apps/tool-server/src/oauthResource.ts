/** `--auth-issuer`: the server as an OAuth resource server, with tokens from a real authorization server. */
import {
  bearerAuthenticate,
  bearerChallenge,
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
}

/** The `listen` options that make the HTTP endpoint a resource server: the hook, the challenge, the metadata. */
export async function oauthListenOptions(auth: OAuthOption, logger: Logger) {
  const jwksUri = auth.jwksUri ?? (await discoverJwksUri(auth.issuer));
  const verify = createJwtVerifier({ issuer: auth.issuer, audience: auth.resource, jwksUri });
  const metadataUrl = resourceMetadataUrl(auth.resource);
  return {
    authenticate: bearerAuthenticate({
      verify,
      onRejected: (error: unknown) =>
        logger.info(
          { transport: 'http', reason: error instanceof Error ? error.message : String(error) },
          'refused a token',
        ),
    }),
    wwwAuthenticate: bearerChallenge({ resourceMetadataUrl: metadataUrl }),
    documents: {
      [metadataUrl.pathname]: resourceMetadataDocument({
        resource: auth.resource,
        authorizationServers: [auth.issuer],
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
