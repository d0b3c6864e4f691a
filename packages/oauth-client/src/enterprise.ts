import * as oauth from 'oauth4webapi';
import { jwtBearerToken } from './clientCredentials.js';
import { OAuthFlowError } from './errors.js';
import { describeCause, type GrantContext } from './grants.js';
import { isLoopbackHttp } from './http.js';
import { secretBasic } from './registration.js';
import type { StoredClient, StoredTokens } from './tokenStore.js';

/**
 * Enterprise-managed authorization (the MCP `enterprise-managed-authorization` extension): the person signed in
 * to the enterprise identity provider once; the client trades that ID token for an Identity Assertion JWT
 * Authorization Grant (ID-JAG) at the identity provider (RFC 8693 token exchange), then presents the ID-JAG to the
 * MCP server's authorization server with the JWT bearer grant (RFC 7523). No browser is shown.
 */
export interface EnterpriseAuthorization {
  /** The identity provider's token endpoint, where the token exchange happens. */
  readonly idpTokenEndpoint: string;
  /** The person's OpenID Connect ID token from the identity provider, or a function that returns a current one. */
  readonly idToken: string | (() => Promise<string>);
  /** This client's id at the identity provider. */
  readonly idpClientId: string;
  /** This client's secret at the identity provider (`client_secret_basic`); without it the id is sent in the body. */
  readonly idpClientSecret?: string | undefined;
  /** This client's registration at the MCP server's authorization server (`client_secret_basic` with a secret). */
  readonly client: StoredClient;
}

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';

/** Token exchange then JWT bearer grant: an access token for `resource` at `context.as` without a login page. */
export async function enterpriseToken(
  context: GrantContext,
  enterprise: EnterpriseAuthorization,
  resource: string,
  scope: string | undefined,
): Promise<StoredTokens> {
  const grant = await exchangeForIdJag(context, enterprise, resource, scope);
  const parameters: Record<string, string> = { assertion: grant };
  if (scope !== undefined && scope !== '') parameters.scope = scope;
  // A refused grant is not retried: the same ID-JAG would be refused again (RFC 7523 section 3.1).
  return jwtBearerToken(context, parameters);
}

/** RFC 8693 token exchange at the identity provider: the ID token in, an ID-JAG for this issuer and resource out. */
async function exchangeForIdJag(
  context: GrantContext,
  enterprise: EnterpriseAuthorization,
  resource: string,
  scope: string | undefined,
): Promise<string> {
  const endpoint = new URL(enterprise.idpTokenEndpoint);
  const idp: oauth.AuthorizationServer = { issuer: endpoint.origin, token_endpoint: endpoint.href };
  const client: oauth.Client = { client_id: enterprise.idpClientId };
  const auth = enterprise.idpClientSecret === undefined ? oauth.None() : secretBasic(enterprise.idpClientSecret);
  const subject = typeof enterprise.idToken === 'string' ? enterprise.idToken : await enterprise.idToken();
  const parameters = new URLSearchParams({
    requested_token_type: ID_JAG,
    audience: context.as.issuer,
    resource,
    subject_token: subject,
    subject_token_type: ID_TOKEN,
  });
  if (scope !== undefined && scope !== '') parameters.set('scope', scope);
  const where = `The identity provider's token endpoint ${endpoint.href}`;
  try {
    const response = await oauth.genericTokenEndpointRequest(idp, client, auth, TOKEN_EXCHANGE, parameters, {
      [oauth.customFetch]: (url, init) => context.fetchFn(url, init as RequestInit),
      [oauth.allowInsecureRequests]: isLoopbackHttp(endpoint),
    });
    // An ID-JAG is not an access token: RFC 8693 section 2.2.1 says `token_type` is then `N_A`.
    const answer = await oauth.processGenericTokenEndpointResponse(idp, client, response, {
      recognizedTokenTypes: { n_a: () => undefined },
    });
    if (answer.issued_token_type !== ID_JAG) {
      throw new OAuthFlowError(
        'token_exchange',
        `${where} issued ${String(answer.issued_token_type ?? 'no issued_token_type')} instead of an ID-JAG (${ID_JAG})`,
      );
    }
    return answer.access_token;
  } catch (cause) {
    if (cause instanceof OAuthFlowError) throw cause;
    throw new OAuthFlowError('token_exchange', `${where} refused the token exchange (${describeCause(cause)})`, {
      cause,
    });
  }
}
