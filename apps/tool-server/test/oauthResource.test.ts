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

const token = (audience = RESOURCE, subject = 'alice') =>
  new SignJWT({ scope: 'mcp' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(ISSUER)
    .setSubject(subject)
    .setAudience(audience)
    .setExpirationTime('5m')
    .sign(keys.privateKey);

async function post(url: string, authorization?: string) {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }),
  });
}

describe('tool server --auth-issuer', () => {
  it('A-S1, A-S2: serves RFC 9728 metadata, challenges without a token, refuses another audience, accepts a valid token', async () => {
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
    const url = started.url as string;
    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url));
    expect(await metadata.json()).toMatchObject({ resource: RESOURCE, authorization_servers: [ISSUER] });

    const anonymous = await post(url);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp"',
    );
    expect((await post(url, `Bearer ${await token('https://other.example/mcp')}`)).status).toBe(401);
    const ok = await post(url, `Bearer ${await token()}`);
    expect(ok.status).toBe(200);
  });
});
