// Our tool server as an OAuth resource server of a real authorization server (oidc-provider, tooling/oidc-harness),
// reached by official clients: the SDK v1 client (1.32.2) logging in with its own OAuthClientProvider (discovery,
// dynamic registration, PKCE, resource indicator), and the Inspector CLI (2.12.0) with a bearer token.
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { type OidcHarness, startOidcHarness } from '@mcp-tasks/oidc-harness';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningHttpServer, startToolServerHttp } from './helpers/toolServer.js';

const INSPECTOR = fileURLToPath(new URL('../node_modules/.bin/inspector', import.meta.url));
const REDIRECT = 'http://127.0.0.1:33418/callback';

let harness: OidcHarness;
let server: RunningHttpServer;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

beforeAll(async () => {
  harness = await startOidcHarness();
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  server = await startToolServerHttp('all', 10_000, [
    '--port',
    String(port),
    '--auth-issuer',
    harness.issuer,
    '--auth-resource',
    resource,
  ]);
});
afterAll(async () => {
  await server?.close();
  await harness?.close();
});

/** The SDK v1 client's OAuth provider as a host implements it: memory storage, the redirect handed to the test. */
class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  get redirectUrl(): string {
    return REDIRECT;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'sdk-v1-interop',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    } as OAuthClientMetadata;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe('official clients against our tool server behind oidc-provider', () => {
  it('A-S1, A-S2, A-S3: the SDK v1 client discovers, registers, logs in with PKCE and a resource, then works', async () => {
    const provider = new MemoryProvider();
    const first = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
    await expect(new Client({ name: 'sdk-v1', version: '1' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    const url = provider.authorizationUrl;
    if (url === undefined) throw new Error('the SDK never asked to open an authorization URL');
    expect(url.searchParams.get('resource')).toBe(server.url);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    const back = await harness.consent(url, { user: 'alice' });
    await first.finishAuth(back.searchParams.get('code') ?? '');
    const claims = JSON.parse(Buffer.from(provider.saved?.access_token.split('.')[1] ?? '', 'base64url').toString());
    expect(claims).toMatchObject({ sub: 'alice', aud: server.url, iss: harness.issuer });

    const client = new Client({ name: 'sdk-v1', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('greet');
      const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
      expect(JSON.stringify(result.content)).toContain('Hello, Ada!');
    } finally {
      await client.close();
    }
  });

  it('A-S2: the Inspector CLI lists tools with a bearer token from the authorization server, and fails without', async () => {
    const { accessToken } = await harness.tokensFor('bob', { resource: server.url });
    const inspect = (headers: readonly string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          INSPECTOR,
          ['--cli', server.url, ...headers, '--method', 'tools/list'],
          { timeout: 60_000, killSignal: 'SIGKILL', maxBuffer: 8 * 1024 * 1024 },
          (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
        );
      });
    const allowed = await inspect(['--header', `Authorization: Bearer ${accessToken}`]);
    expect(allowed.code, allowed.stderr).toBe(0);
    const { tools } = JSON.parse(allowed.stdout) as { tools: { name: string }[] };
    expect(tools.map((tool) => tool.name)).toContain('slow_compute');
    const refused = await inspect([]);
    expect(refused.code).not.toBe(0);
  });
});
