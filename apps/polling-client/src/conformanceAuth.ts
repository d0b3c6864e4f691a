/**
 * The conformance harness's `auth/*` scenarios: the client behind `@mcp-tasks/oauth-client`, with a headless
 * "browser" that follows the mock authorization server's redirect instead of showing a page to a person.
 */
import type { McpClient } from '@mcp-tasks/client';
import {
  type ClientCredentials,
  type EnterpriseAuthorization,
  type OAuthFetchOptions,
  withOAuth,
} from '@mcp-tasks/oauth-client';

/** The client metadata document URL the harness's authorization servers accept. */
const CIMD_URL = 'https://conformance-test.local/client-metadata.json';
const REDIRECT_URI = 'http://127.0.0.1:3000/callback';

interface AuthContext {
  readonly name?: string;
  readonly client_id?: string;
  readonly client_secret?: string;
  readonly private_key_pem?: string;
  readonly signing_algorithm?: string;
  readonly valid_jwt?: string;
  readonly idp_client_id?: string;
  readonly idp_id_token?: string;
  readonly idp_token_endpoint?: string;
}

/** Follows the authorization endpoint's redirect without a browser (the mock approves every request at once). */
async function followRedirect(authorizationUrl: URL): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (location === null)
    throw new Error(`The authorization endpoint answered HTTP ${response.status} without a redirect`);
  return new URL(location, authorizationUrl);
}

/** Builds the OAuth fetch for a scenario from `MCP_CONFORMANCE_CONTEXT`. */
export async function conformanceAuthFetch(
  contextText: string | undefined,
): Promise<(input: string, init: RequestInit) => Promise<Response>> {
  const context = (contextText ? JSON.parse(contextText) : {}) as AuthContext;
  const options: OAuthFetchOptions = {
    identity: { clientName: 'mcp-tasks-polling-client', clientMetadataUrl: CIMD_URL, ...preRegistered(context) },
    redirectUri: REDIRECT_URI,
    authorize: followRedirect,
    clientCredentials: credentials(context),
    enterpriseAuthorization: enterprise(context),
  };
  return withOAuth(options);
}

function preRegistered(context: AuthContext): OAuthFetchOptions['identity'] | object {
  if (context.name !== 'auth/pre-registration' || context.client_id === undefined) return {};
  return { preRegistered: { clientId: context.client_id, clientSecret: context.client_secret } };
}

function credentials(context: AuthContext): ClientCredentials | undefined {
  if (context.client_id === undefined) return undefined;
  if (context.name === 'auth/wif-jwt-bearer' && context.valid_jwt !== undefined) {
    return { clientId: context.client_id, assertion: context.valid_jwt };
  }
  if (!context.name?.startsWith('auth/client-credentials')) return undefined;
  if (context.private_key_pem !== undefined) {
    return {
      clientId: context.client_id,
      privateKeyPem: context.private_key_pem,
      algorithm: context.signing_algorithm,
    };
  }
  if (context.client_secret !== undefined) return { clientId: context.client_id, clientSecret: context.client_secret };
  return undefined;
}

/** The enterprise-managed authorization scenario hands over an ID token already issued by its identity provider. */
function enterprise(context: AuthContext): EnterpriseAuthorization | undefined {
  const { client_id, client_secret, idp_client_id, idp_id_token, idp_token_endpoint } = context;
  if (context.name !== 'auth/enterprise-managed-authorization') return undefined;
  if (client_id === undefined || idp_client_id === undefined || idp_id_token === undefined) return undefined;
  if (idp_token_endpoint === undefined) return undefined;
  return {
    idpTokenEndpoint: idp_token_endpoint,
    idToken: idp_id_token,
    idpClientId: idp_client_id,
    client: { clientId: client_id, clientSecret: client_secret, tokenEndpointAuthMethod: 'client_secret_basic' },
  };
}

/** What an auth scenario's client does once authorized: list the tools and call the test tool when offered. */
export async function AUTH_STEPS(client: McpClient): Promise<void> {
  if ((await client.connect()).era === 'modern') await client.discover();
  const tools = await client.listAllTools();
  if (tools.some((tool) => tool.name === 'test-tool')) await client.callTool('test-tool', {});
}
