// Per-tool required scopes on both fronts: a token lacking one gets 403 with an insufficient_scope challenge.
import type { ServerEndpoint } from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createFetchHandler } from '../src/fetch.js';
import { type HttpServerHandle, listen } from '../src/index.js';
import { fakeRuntime, mcpHeaders, rpc } from './fakes.js';

const TOKENS: Record<string, { principal: string; scopes?: readonly string[] } | { challenge: string }> = {
  'Bearer expired': { challenge: 'Bearer error="invalid_token", error_description="expired"' },
  'Bearer reader': { principal: 'alice', scopes: ['tasks:read'] },
  'Bearer deployer': { principal: 'bob', scopes: ['tasks:read', 'deploy'] },
  'Bearer static': { principal: 'dev' },
};
const challenge = (scope: string) => `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="x"`;

function endpointWithScopes() {
  const runtime = fakeRuntime();
  const endpoint: ServerEndpoint = {
    handle: runtime.handler,
    toolParamHeaders: () => [],
    toolRequiredScopes: (name) => (name === 'deploy_service' ? ['deploy', 'tasks:read'] : []),
  };
  return { ...runtime, endpoint };
}
const call = (id: number, name: string) => rpc(id, 'tools/call', { name, arguments: {} });
const callHeaders = (name: string, authorization: string) =>
  mcpHeaders('tools/call', { 'mcp-name': name, authorization });

describe('required scopes, fetch front', () => {
  const { endpoint, recorded } = endpointWithScopes();
  const handler = createFetchHandler(endpoint, {
    authenticate: (request) => TOKENS[request.headers.get('authorization') ?? ''],
    insufficientScopeChallenge: challenge,
  });
  const post = (id: number, name: string, authorization: string) =>
    handler(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: callHeaders(name, authorization),
        body: JSON.stringify(call(id, name)),
      }),
    );

  it('A-S6: a token without the tool’s scope gets 403, the challenge names granted + required scopes', async () => {
    const res = await post(1, 'deploy_service', 'Bearer reader');
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", scope="tasks:read deploy", resource_metadata="x"',
    );
    expect(await res.json()).toMatchObject({
      id: 1,
      error: {
        code: -32600,
        message: /needs the scope deploy/,
        data: { error: 'insufficient_scope', scope: 'tasks:read deploy', missingScopes: ['deploy'] },
      },
    });
    expect(recorded.contexts).toHaveLength(0);
  });

  it('A-S6: a token with the scopes, a tool without required scopes, or a static token (no scopes) goes on', async () => {
    expect((await post(2, 'deploy_service', 'Bearer deployer')).status).toBe(200);
    expect((await post(3, 'other_tool', 'Bearer reader')).status).toBe(200);
    expect((await post(4, 'deploy_service', 'Bearer static')).status).toBe(200);
    expect(recorded.contexts.map((c) => c.principal)).toEqual(['bob', 'alice', 'dev']);
  });

  it('A-S2: a hook refusing with its own challenge is answered 401 with it', async () => {
    const res = await post(5, 'other_tool', 'Bearer expired');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token", error_description="expired"');
  });
});

describe('required scopes, node:http front', () => {
  let server: HttpServerHandle | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it("A-S2, A-S6: 403 with the default challenge on both eras, 401 with a hook's own; the runtime never sees them", async () => {
    const { endpoint, recorded } = endpointWithScopes();
    server = await listen(endpoint, {
      authenticate: (req) => TOKENS[String(req.headers.authorization)],
    });
    const res = await fetch(server.url, {
      method: 'POST',
      headers: callHeaders('deploy_service', 'Bearer reader'),
      body: JSON.stringify(call(1, 'deploy_service')),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="tasks:read deploy"');
    // A 2025-era call (no _meta, no session needed for the check) is refused the same way.
    const legacy = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        authorization: 'Bearer reader',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'deploy_service' } }),
    });
    expect(legacy.status).toBe(403);
    const refused = await fetch(server.url, {
      method: 'POST',
      headers: callHeaders('other_tool', 'Bearer expired'),
      body: JSON.stringify(call(3, 'other_tool')),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect(recorded.contexts).toHaveLength(0);
  });
});
