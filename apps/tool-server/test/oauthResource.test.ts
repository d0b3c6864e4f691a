import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { type StartedToolServer, startToolServer } from '../src/startToolServer.js';

const ISSUER = 'https://id.example';
// The public URL behind a proxy: the tokens' audience and the metadata's resource.
const RESOURCE = 'https://mcp.example/mcp';
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const keys = await generateKeyPair('ES256');
let jwks: Server;
let jwksUri = '';
let started: StartedToolServer | undefined;

beforeAll(async () => {
  const body = JSON.stringify({ keys: [{ ...(await exportJWK(keys.publicKey)), kid: 'k1', alg: 'ES256' }] });
  jwks = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  await new Promise<void>((done) => jwks.listen(0, '127.0.0.1', done));
  jwksUri = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`;
});
afterAll(async () => {
  jwks.closeAllConnections();
  await new Promise((done) => jwks.close(done));
});
afterEach(async () => {
  await started?.stop();
  started = undefined;
});

const token = (audience = RESOURCE, subject = 'alice', scope = 'mcp') =>
  new SignJWT({ scope })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(ISSUER)
    .setSubject(subject)
    .setAudience(audience)
    .setExpirationTime('5m')
    .sign(keys.privateKey);

const EXT_META = {
  ...META,
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};
const MCP_NAME: Record<string, string> = {
  'tools/call': 'name',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

async function post(url: string, authorization?: string, method = 'tools/list', params: Record<string, unknown> = {}) {
  const nameField = MCP_NAME[method];
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(nameField === undefined ? {} : { 'mcp-name': String(params[nameField]) }),
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: EXT_META } }),
  });
}

async function rpc(url: string, authorization: string, method: string, params: Record<string, unknown> = {}) {
  const response = await post(url, authorization, method, params);
  const text = await response.text();
  // A streamed answer's last data line is the response.
  const last = text.startsWith('{')
    ? text
    : (text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .at(-1) ?? '');
  return JSON.parse(last.replace(/^data: /, '')) as { result?: Record<string, unknown>; error?: { code: number } };
}

async function startWithAuth() {
  started = await startToolServer(
    {
      transport: 'http',
      host: '127.0.0.1',
      port: 0,
      tools: 'demo',
      tokens: [],
      auth: { issuer: ISSUER, resource: RESOURCE, jwksUri },
    },
    createLogger('silent'),
  );
  return started.url as string;
}

describe('tool server --auth-issuer', () => {
  it('A-S1, A-S2, A-S3: serves RFC 9728 metadata, challenges without a token, refuses another audience (invalid_token), accepts a valid token', async () => {
    const url = await startWithAuth();
    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url));
    expect(await metadata.json()).toMatchObject({ resource: RESOURCE, authorization_servers: [ISSUER] });

    const anonymous = await post(url);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp"',
    );
    const foreign = await post(url, `Bearer ${await token('https://other.example/mcp')}`);
    expect(foreign.status).toBe(401);
    expect(foreign.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp", ' +
        'error="invalid_token", error_description="The access token\'s \\"aud\\" claim is not accepted"',
    );
    const ok = await post(url, `Bearer ${await token()}`);
    expect(ok.status).toBe(200);
  });

  it('A-S6: deploy_service without the deploy scope is 403 insufficient_scope with resource_metadata; with it the call goes on', async () => {
    const url = await startWithAuth();
    const call = { name: 'deploy_service', arguments: { service: 'api', version: '1' } };
    const refused = await post(url, `Bearer ${await token()}`, 'tools/call', call);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp", ' +
        'error="insufficient_scope", scope="mcp deploy"',
    );
    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url));
    expect(await metadata.json()).toMatchObject({ scopes_supported: ['deploy'] });
    // With the scope the call reaches the tool, which refuses a client without elicitation on its own terms.
    const allowed = await post(url, `Bearer ${await token(RESOURCE, 'alice', 'mcp deploy')}`, 'tools/call', call);
    expect(allowed.status).not.toBe(403);
  });

  it('A-S8: a task is bound to issuer + subject: another user cannot get, update or cancel it', async () => {
    const url = await startWithAuth();
    const alice = `Bearer ${await token()}`;
    const bob = `Bearer ${await token(RESOURCE, 'bob')}`;
    const created = await rpc(url, alice, 'tools/call', {
      name: 'count_steps',
      arguments: { steps: 1000, intervalMs: 60_000 },
    });
    const taskId = created.result?.taskId as string;
    expect(created.result?.resultType).toBe('task');
    for (const [method, params] of [
      ['tasks/get', { taskId }],
      ['tasks/update', { taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId }],
    ] as const)
      expect((await rpc(url, bob, method, params)).error?.code, method).toBe(-32602);
    expect((await rpc(url, alice, 'tasks/get', { taskId })).result?.status).toBe('working');
    expect((await rpc(url, alice, 'tasks/cancel', { taskId })).result?.resultType).toBe('complete');
  });

  it('A-S8: a 2025-era session belongs to its token: another user gets 404 on it, and its own session sees no foreign task', async () => {
    const url = await startWithAuth();
    const legacy = async (authorization: string, body: object, session?: string) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          authorization,
          ...(session === undefined ? {} : { 'mcp-session-id': session }),
        },
        body: JSON.stringify({ jsonrpc: '2.0', ...body }),
      });
    const open = async (authorization: string) => {
      const init = await legacy(authorization, {
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: { tasks: {} }, clientInfo: { name: 't', version: '1' } },
      });
      const session = init.headers.get('mcp-session-id') ?? '';
      await init.text();
      await (await legacy(authorization, { method: 'notifications/initialized' }, session)).text();
      return session;
    };
    const json = async (response: Response) => {
      const text = await response.text();
      const line = text.startsWith('{') ? text : (text.split('\n').find((l) => l.startsWith('data: ')) ?? '');
      return JSON.parse(line.replace(/^data: /, ''));
    };
    const alice = `Bearer ${await token()}`;
    const bob = `Bearer ${await token(RESOURCE, 'bob')}`;
    const aliceSession = await open(alice);
    const created = await json(
      await legacy(
        alice,
        {
          id: 1,
          method: 'tools/call',
          params: { name: 'count_steps', arguments: { steps: 1000, intervalMs: 60_000 }, task: {} },
        },
        aliceSession,
      ),
    );
    const taskId = created.result.task.taskId as string;
    expect((await legacy(bob, { id: 2, method: 'tasks/get', params: { taskId } }, aliceSession)).status).toBe(404);
    const bobSession = await open(bob);
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel'])
      expect(
        (await json(await legacy(bob, { id: 3, method, params: { taskId } }, bobSession))).error?.code,
        method,
      ).toBe(-32602);
    expect(
      (await json(await legacy(bob, { id: 4, method: 'tasks/list', params: {} }, bobSession))).result.tasks,
    ).toEqual([]);
    const own = await json(await legacy(alice, { id: 5, method: 'tasks/cancel', params: { taskId } }, aliceSession));
    expect(own.result.status).toBe('cancelled');
  });
});
