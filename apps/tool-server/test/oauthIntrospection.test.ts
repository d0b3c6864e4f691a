// The tool server checking opaque access tokens by RFC 7662 introspection at a real authorization server
// (oidc-provider, tooling/oidc-harness, issuing opaque tokens).
import { type OidcHarness, startOidcHarness } from '@mcp-tasks/oidc-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { type StartedToolServer, startToolServer } from '../src/startToolServer.js';

const RESOURCE = 'https://mcp.example/mcp';
let harness: OidcHarness;
let started: StartedToolServer;

beforeAll(async () => {
  harness = await startOidcHarness({ accessTokenFormat: 'opaque', scopes: ['read', 'deploy'] });
  started = await startToolServer(
    {
      transport: 'http',
      host: '127.0.0.1',
      port: 0,
      tools: 'demo',
      tokens: [],
      auth: {
        issuer: harness.issuer,
        resource: RESOURCE,
        introspection: { endpoint: harness.introspectionEndpoint, ...harness.resourceServer },
      },
    },
    createLogger('silent'),
  );
});
afterAll(async () => {
  await started?.stop();
  await harness?.close();
});

const call = (token: string, name: string) =>
  fetch(started.url as string, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: { steps: 1, intervalMs: 0, service: 'api', version: '1' },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });

describe('tool server --auth-introspection against oidc-provider', () => {
  it('A-S7: accepts an opaque token for this resource, refuses one for another resource and a made-up one', async () => {
    const { accessToken } = await harness.tokensFor('alice', { resource: RESOURCE, scope: 'read' });
    expect(accessToken.split('.')).toHaveLength(1);
    expect((await call(accessToken, 'count_steps')).status).toBe(200);
    const other = await harness.tokensFor('alice', { resource: 'https://other.example/mcp' });
    expect((await call(other.accessToken, 'count_steps')).status).toBe(401);
    expect((await call('made-up-token', 'count_steps')).status).toBe(401);
  });

  it('A-S6, A-S7: the scopes come from the introspection answer: deploy needs the deploy scope', async () => {
    const without = await harness.tokensFor('bob', { resource: RESOURCE, scope: 'read' });
    const refused = await call(without.accessToken, 'deploy_service');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="read deploy"/);
    const granted = await harness.tokensFor('bob', { resource: RESOURCE, scope: 'deploy' });
    expect((await call(granted.accessToken, 'deploy_service')).status).not.toBe(403);
  });
});
