/**
 * OAuth at the WebSocket upgrade: the hook shape of the HTTP transports (principal with scopes, a refusal with its
 * own challenge, null), the RFC 9728 document on the same port, and tools' required scopes on `tools/call`.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import type { MessageHandler, ServerEndpoint } from '@mcp-tasks/protocol';
import { describe, expect, it } from 'vitest';
import { WebSocketServerTransport } from '../src/webSocketServerTransport.js';
import { fakeHandler } from './fakeHandler.js';
import { cleanup, client, nextMessage, raw, req } from './wsTestKit.js';

const META_PATH = '/.well-known/oauth-protected-resource/mcp';
const CHALLENGE = 'Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp"';
const TOKENS: Record<string, { principal: string; scopes: string[] }> = {
  reader: { principal: 'https://id.example#alice', scopes: ['mcp'] },
  deployer: { principal: 'https://id.example#bob', scopes: ['mcp', 'deploy'] },
};

/** The fake runtime as an endpoint whose `deploy_service` needs `deploy`; `tools/call` answers who called. */
function endpoint(): { endpoint: ServerEndpoint; calls: string[] } {
  const fake = fakeHandler();
  const calls: string[] = [];
  const handle: MessageHandler = async (message, context) => {
    const { id, method, params } = message as { id: number; method: string; params?: { name?: string } };
    if (method !== 'tools/call') return fake.handler(message, context);
    calls.push(String(params?.name));
    return { jsonrpc: '2.0', id, result: { principal: context.principal ?? null } };
  };
  return {
    calls,
    endpoint: {
      handle,
      toolParamHeaders: () => [],
      toolRequiredScopes: (name) => (name === 'deploy_service' ? ['deploy'] : []),
    },
  };
}

async function serveOAuth() {
  const { endpoint: runtime, calls } = endpoint();
  const server = await WebSocketServerTransport.listen(runtime, {
    heartbeatMs: 0,
    authenticate: (_request, token) => {
      if (token === undefined) return null;
      if (token === 'static') return 'dev';
      return TOKENS[token] ?? { challenge: `${CHALLENGE}, error="invalid_token"` };
    },
    wwwAuthenticate: CHALLENGE,
    insufficientScopeChallenge: (scope) => `${CHALLENGE}, error="insufficient_scope", scope="${scope}"`,
    documents: { [META_PATH]: { resource: 'https://mcp.example/mcp', authorization_servers: ['https://id.example'] } },
  });
  cleanup.push(() => server.close());
  return { server, calls };
}

/** The status and `WWW-Authenticate` of a refused upgrade, read off the raw HTTP response. */
function upgradeRefusal(url: string, authorization?: string): Promise<{ status?: number; challenge?: string }> {
  const target = new URL(url.replace('ws:', 'http:'));
  return new Promise((resolve, reject) => {
    const upgrade = request(target, {
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        'sec-websocket-protocol': 'mcp',
        ...(authorization === undefined ? {} : { authorization }),
      },
    });
    upgrade.on('response', (response) => {
      response.resume();
      resolve({ status: response.statusCode, challenge: response.headers['www-authenticate'] });
    });
    upgrade.on('upgrade', () => reject(new Error('the upgrade was accepted')));
    upgrade.on('error', reject);
    upgrade.end();
  });
}

const call = (id: number, name: string) => req(id, 'tools/call', { name, arguments: {} });

describe('WebSocket binding as an OAuth resource server', () => {
  it('A-S2: an upgrade without a token is refused 401 with the configured resource_metadata challenge', async () => {
    const { server } = await serveOAuth();
    expect(await upgradeRefusal(server.url)).toEqual({ status: 401, challenge: CHALLENGE });
    await expect(raw(server.url)).rejects.toThrow('status 401');
  });

  it('A-S3: a refused token gets the hook’s own challenge; a throwing hook gets the configured one', async () => {
    const { server } = await serveOAuth();
    expect(await upgradeRefusal(server.url, 'Bearer forged')).toEqual({
      status: 401,
      challenge: `${CHALLENGE}, error="invalid_token"`,
    });
    const throwing = await WebSocketServerTransport.listen(fakeHandler().handler, {
      heartbeatMs: 0,
      authenticate: () => {
        throw new Error('verifier down');
      },
    });
    cleanup.push(() => throwing.close());
    expect(await upgradeRefusal(throwing.url, 'Bearer x')).toEqual({ status: 401, challenge: 'Bearer' });
  });

  it('A-S1: serves the RFC 9728 document on the same port; other plain requests get 426', async () => {
    const { server } = await serveOAuth();
    const base = server.url.replace('ws:', 'http:');
    const metadata = await fetch(new URL(META_PATH, base));
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toEqual({
      resource: 'https://mcp.example/mcp',
      authorization_servers: ['https://id.example'],
    });
    expect((await fetch(new URL('/elsewhere', base))).status).toBe(426);
    expect((await fetch(new URL(META_PATH, base), { method: 'POST' })).status).toBe(426);
  });

  it('A-S6: a tools/call lacking the tool’s scope is refused before the runtime, naming the missing scopes', async () => {
    const { server, calls } = await serveOAuth();
    const reader = await client(server.url, { headers: { Authorization: 'Bearer reader' } });
    expect(await reader.request(call(1, 'deploy_service'))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32600,
        message: 'Forbidden: the tool deploy_service needs the scope deploy, which the access token does not grant',
        data: {
          error: 'insufficient_scope',
          scope: 'mcp deploy',
          missingScopes: ['deploy'],
          wwwAuthenticate: `${CHALLENGE}, error="insufficient_scope", scope="mcp deploy"`,
        },
      },
    });
    expect(calls).toEqual([]);
    // The socket stays open and its other calls go on.
    expect(await reader.request(call(2, 'echo_tool'))).toMatchObject({
      result: { principal: 'https://id.example#alice' },
    });
    expect(calls).toEqual(['echo_tool']);
  });

  it('A-S6: with the scope, or with a static token (scopes unknown), the call reaches the runtime', async () => {
    const { server, calls } = await serveOAuth();
    const deployer = await client(server.url, { headers: { Authorization: 'Bearer deployer' } });
    expect(await deployer.request(call(1, 'deploy_service'))).toMatchObject({
      result: { principal: 'https://id.example#bob' },
    });
    // A browser's subprotocol token is the same token.
    const browser = await client(server.url, { token: 'static' });
    expect(await browser.request(call(2, 'deploy_service'))).toMatchObject({ result: { principal: 'dev' } });
    expect(calls).toEqual(['deploy_service', 'deploy_service']);
  });

  it('a refused tools/call notification is dropped, never run', async () => {
    const { server, calls } = await serveOAuth();
    const socket = await raw(server.url, ['mcp'], { headers: { Authorization: 'Bearer reader' } });
    socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'deploy_service' } }));
    socket.send(JSON.stringify(req(9, 'echo')));
    expect(await nextMessage(socket)).toMatchObject({ id: 9 });
    expect(calls).toEqual([]);
  });

  it('a target new URL cannot parse, or a challenge with a line break, never hurts the server', async () => {
    const { server } = await serveOAuth();
    const port = Number(new URL(server.url).port);
    const exchange = (text: string) =>
      new Promise<string>((resolve, reject) => {
        let answer = '';
        const socket = connect(port, '127.0.0.1', () => socket.end(text));
        socket.on('data', (chunk) => {
          answer += String(chunk);
        });
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const upgrade = 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n';
    const key = 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: mcp\r\n';
    expect(await exchange(`GET http://[ HTTP/1.1\r\nHost: 127.0.0.1\r\n${upgrade}${key}\r\n`)).toMatch(
      /^HTTP\/1.1 404/,
    );
    expect(await exchange('GET http://[ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')).toMatch(
      /^HTTP\/1.1 426/,
    );
    const injecting = await WebSocketServerTransport.listen(fakeHandler().handler, {
      heartbeatMs: 0,
      authenticate: () => ({ challenge: 'Bearer\r\nSet-Cookie: x=1' }),
    });
    cleanup.push(() => injecting.close());
    expect(await upgradeRefusal(injecting.url, 'Bearer t')).toEqual({
      status: 401,
      challenge: 'Bearer Set-Cookie: x=1',
    });
    // Still serving.
    expect(
      await (await client(server.url, { headers: { Authorization: 'Bearer reader' } })).request(req(1, 'echo')),
    ).toMatchObject({ id: 1 });
  });
});
