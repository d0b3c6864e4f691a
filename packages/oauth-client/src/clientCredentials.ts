import { importPKCS8 } from 'jose';
import * as oauth from 'oauth4webapi';
import { asClient, type GrantContext, requestOptions, tokenError, toStored, withNonceRetry } from './grants.js';
import { secretBasic } from './registration.js';
import type { StoredTokens } from './tokenStore.js';

/**
 * Machine-to-machine credentials: the client credentials grant (OAuth 2.1 section 4.2) with a secret or a private
 * key, or a workload identity JWT presented with the JWT bearer grant (RFC 7523 section 2.1).
 */
export type ClientCredentials =
  | {
      /** The registered client id. */
      readonly clientId: string;
      /** The client secret, sent with `client_secret_basic`. */
      readonly clientSecret: string;
    }
  | {
      /** The registered client id. */
      readonly clientId: string;
      /** The PKCS #8 PEM private key that signs the `private_key_jwt` assertion. */
      readonly privateKeyPem: string;
      /** The key's JWS algorithm. Default `ES256`. */
      readonly algorithm?: string | undefined;
    }
  | {
      /** The client id the assertion was issued for. */
      readonly clientId: string;
      /** The workload identity JWT presented with the JWT bearer grant. */
      readonly assertion: string;
    };

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The client authentication for a credentials grant: a secret (basic) or a signed JWT (RFC 7523 private_key_jwt). */
export async function credentialsAuth(credentials: ClientCredentials): Promise<oauth.ClientAuth> {
  if ('clientSecret' in credentials) return secretBasic(credentials.clientSecret);
  if ('assertion' in credentials) return oauth.None();
  const algorithm = credentials.algorithm ?? 'ES256';
  const key = await importPKCS8(credentials.privateKeyPem, algorithm);
  return oauth.PrivateKeyJwt(key);
}

/** Gets a token with the client credentials grant for `resource`, asking for `scope` when given. */
export async function clientCredentialsToken(
  context: GrantContext,
  resource: string,
  scope: string | undefined,
  assertion?: string,
): Promise<StoredTokens> {
  const client = asClient(context.client);
  const parameters: Record<string, string> = { resource };
  if (scope !== undefined && scope !== '') parameters.scope = scope;
  if (assertion !== undefined) return jwtBearerToken(context, { ...parameters, assertion });
  try {
    const response = await withNonceRetry(context, () =>
      oauth.clientCredentialsGrantRequest(
        context.as,
        client,
        context.auth,
        new URLSearchParams(),
        requestOptions(context, parameters),
      ),
    );
    return toStored(await oauth.processClientCredentialsResponse(context.as, client, response), context.as.issuer);
  } catch (cause) {
    throw tokenError(context, cause);
  }
}

/**
 * The JWT bearer grant (RFC 7523) at the token endpoint with `parameters` (`assertion`, optional `scope`): one request,
 * retried once for a DPoP nonce. Used for workload identity assertions and for enterprise ID-JAGs.
 */
export async function jwtBearerToken(context: GrantContext, parameters: Record<string, string>): Promise<StoredTokens> {
  const client = asClient(context.client);
  try {
    const response = await withNonceRetry(context, () =>
      oauth.genericTokenEndpointRequest(
        context.as,
        client,
        context.auth,
        JWT_BEARER,
        new URLSearchParams(parameters),
        requestOptions(context, {}),
      ),
    );
    return toStored(await oauth.processGenericTokenEndpointResponse(context.as, client, response), context.as.issuer);
  } catch (cause) {
    throw tokenError(context, cause);
  }
}
