import { decodeProtectedHeader, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type EnterpriseAuthorization, OAuthFlowError, withOAuth } from '../src/index.js';
import {
  type Answer,
  type LocalServers,
  type Recorded,
  type Routes,
  startServers,
  unauthorized,
} from './localServers.js';

const ID_TOKEN = 'person-id-token';
const BASIC = `Basic ${btoa('mcp-client:mcp-secret')}`;
let idpKeys: CryptoKeyPair;
beforeAll(async () => {
  idpKeys = (await generateKeyPair('ES256')) as CryptoKeyPair;
});

/** The identity provider issues an ID-JAG; the authorization server checks it and the client's secret. */
function routes(base: () => string, overrides: Partial<Routes> = {}): Routes {
  return {
    idpToken: async (request): Promise<Answer> => {
      const form = request.form;
      if (form.get('subject_token') !== ID_TOKEN) return { status: 400, body: { error: 'invalid_grant' } };
      const jag = await new SignJWT({ resource: form.get('resource'), client_id: 'mcp-client' })
        .setProtectedHeader({ alg: 'ES256', typ: 'oauth-id-jag+jwt' })
        .setIssuer(`${base()}/idp`)
        .setSubject('alice')
        .setAudience(form.get('audience') ?? '')
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(idpKeys.privateKey);
      const issued = 'urn:ietf:params:oauth:token-type:id-jag';
      return { status: 200, body: { access_token: jag, issued_token_type: issued, token_type: 'N_A' } };
    },
    token: async (request): Promise<Answer> => {
      if (request.headers.authorization !== BASIC) return { status: 401, body: { error: 'invalid_client' } };
      try {
        const { payload } = await jwtVerify(request.form.get('assertion') ?? '', idpKeys.publicKey, {
          audience: base(),
        });
        if (payload.resource !== `${base()}/mcp`) return { status: 400, body: { error: 'invalid_grant' } };
      } catch {
        return { status: 400, body: { error: 'invalid_grant', error_description: 'bad ID-JAG' } };
      }
      return { status: 200, body: { access_token: 'ema-token', token_type: 'Bearer', expires_in: 3600 } };
    },
    resource: async (request) =>
      request.headers.authorization === 'Bearer ema-token' ? { status: 200, body: { ok: true } } : unauthorized(base()),
    ...overrides,
  };
}

let servers: LocalServers | undefined;
afterEach(async () => {
  await servers?.close();
  servers = undefined;
});

async function start(overrides: (base: () => string) => Partial<Routes> = () => ({})): Promise<LocalServers> {
  let base = '';
  servers = await startServers(
    routes(
      () => base,
      overrides(() => base),
    ),
  );
  base = servers.base;
  return servers;
}

function enterprise(s: LocalServers, extra: Partial<EnterpriseAuthorization> = {}): EnterpriseAuthorization {
  return {
    idpTokenEndpoint: `${s.base}/idp/token`,
    idToken: ID_TOKEN,
    idpClientId: 'idp-client',
    client: { clientId: 'mcp-client', clientSecret: 'mcp-secret', tokenEndpointAuthMethod: 'client_secret_basic' },
    ...extra,
  };
}

const fetchWith = (ema: EnterpriseAuthorization) =>
  withOAuth({ identity: { clientName: 'test' }, enterpriseAuthorization: ema, dpop: false });
const at = (s: LocalServers, path: string): Recorded[] => s.requests.filter((r) => r.path === path);

describe('enterprise-managed authorization', () => {
  it('A-C4: exchanges the ID token for an ID-JAG (RFC 8693), then presents it with the JWT bearer grant (RFC 7523)', async () => {
    const s = await start();
    let asked = 0;
    const idToken = async () => {
      asked++;
      return ID_TOKEN;
    };
    const response = await fetchWith(enterprise(s, { idToken }))(`${s.base}/mcp`, { method: 'POST', body: '{}' });
    expect(await response.json()).toEqual({ ok: true });
    expect(asked).toBe(1);

    const [exchange] = at(s, '/idp/token');
    expect(Object.fromEntries(exchange?.form ?? [])).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: s.base,
      resource: `${s.base}/mcp`,
      subject_token: ID_TOKEN,
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      client_id: 'idp-client',
    });
    const [grant] = at(s, '/token');
    expect(grant?.form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    expect(decodeProtectedHeader(grant?.form.get('assertion') ?? '').typ).toBe('oauth-id-jag+jwt');
    expect(grant?.headers.authorization).toBe(BASIC);
  });

  it('A-C4: authenticates to the identity provider with client_secret_basic when given a secret', async () => {
    const s = await start();
    await fetchWith(enterprise(s, { idpClientSecret: 'idp-secret' }))(`${s.base}/mcp`, {});
    const [exchange] = at(s, '/idp/token');
    expect(exchange?.headers.authorization).toBe(`Basic ${btoa('idp-client:idp-secret')}`);
    expect(exchange?.form.has('client_id')).toBe(false);
  });

  it('A-C4: reports an identity provider refusing the exchange, and asks the authorization server nothing', async () => {
    const s = await start();
    const failure = await fetchWith(enterprise(s, { idToken: 'expired' }))(`${s.base}/mcp`, {}).catch((e) => e);
    expect(failure).toBeInstanceOf(OAuthFlowError);
    expect((failure as OAuthFlowError).code).toBe('token_exchange');
    expect((failure as Error).message).toBe(
      `The identity provider's token endpoint ${s.base}/idp/token refused the token exchange (invalid_grant)`,
    );
    expect(at(s, '/token')).toHaveLength(0);
  });

  it('A-C4: refuses an exchange answer that is not an ID-JAG', async () => {
    const s = await start(() => ({
      idpToken: () => ({
        status: 200,
        body: {
          access_token: 'x',
          issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
          token_type: 'N_A',
        },
      }),
    }));
    const failure = await fetchWith(enterprise(s))(`${s.base}/mcp`, {}).catch((e) => e);
    expect((failure as OAuthFlowError).code).toBe('token_exchange');
    expect((failure as Error).message).toContain('issued urn:ietf:params:oauth:token-type:access_token instead of');
  });

  it('A-C4: reports an authorization server refusing the grant, once, without retrying the same ID-JAG', async () => {
    const s = await start(() => ({
      token: () => ({ status: 400, body: { error: 'invalid_grant', error_description: 'audience not allowed' } }),
    }));
    const failure = await fetchWith(enterprise(s))(`${s.base}/mcp`, {}).catch((e) => e);
    expect((failure as OAuthFlowError).code).toBe('token');
    expect((failure as Error).message).toBe(
      `The token endpoint of ${s.base} refused the request (invalid_grant: audience not allowed)`,
    );
    expect(at(s, '/token')).toHaveLength(1);
  });
});
