import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntrospectionVerifier, principalOf, TokenRejectedError } from '../src/index.js';

const ISSUER = 'https://issuer.example';
const AUDIENCE = 'https://mcp.example/mcp';
let server: Server;
let base = '';
/** What the fake authorization server answers per token; `hang` never answers, `500` fails. */
const answers = new Map<string, unknown>();
const seen: { authorization: string | undefined; body: string }[] = [];

async function readAll(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await readAll(req);
    seen.push({ authorization: req.headers.authorization, body });
    const answer = answers.get(new URLSearchParams(body).get('token') ?? '') ?? { active: false };
    if (answer === 'hang') return;
    if (answer === 500) return void res.writeHead(500).end();
    res.setHeader('content-type', 'application/json');
    res.end(typeof answer === 'string' ? answer : JSON.stringify(answer));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
});

// A loaded CI machine can take over 300 ms to answer the first request: only the hanging case needs a short deadline.
const verify = createIntrospectionVerifierFor(10_000);
function createIntrospectionVerifierFor(timeoutMs: number) {
  return (token: string) =>
    createIntrospectionVerifier({
      introspectionEndpoint: `${base}/introspect`,
      issuer: ISSUER,
      audience: AUDIENCE,
      clientId: 'mcp server',
      clientSecret: 's3cret:x',
      timeoutMs,
    })(token);
}
const later = () => Math.floor(Date.now() / 1000) + 300;

describe('createIntrospectionVerifier (RFC 7662)', () => {
  it('A-S7: accepts an active token for this resource; the principal is issuer + subject', async () => {
    answers.set('good', { active: true, sub: 'alice', aud: AUDIENCE, iss: ISSUER, scope: 'a b', exp: later() });
    const verified = await verify('good');
    expect(verified).toMatchObject({ principal: principalOf(ISSUER, 'alice'), scopes: ['a', 'b'] });
    const call = seen.at(-1);
    expect(new URLSearchParams(call?.body).get('token_type_hint')).toBe('access_token');
    // RFC 6749 2.3.1: id and secret form-encoded, then Basic.
    expect(atob(call?.authorization?.replace('Basic ', '') ?? '')).toBe('mcp+server:s3cret%3Ax');
  });

  it('A-S7: refuses an inactive token, another audience, another issuer, no subject, an expired token', async () => {
    answers.set('inactive', { active: false });
    answers.set('aud', { active: true, sub: 'alice', aud: 'https://other.example/mcp', exp: later() });
    answers.set('iss', { active: true, sub: 'alice', aud: [AUDIENCE], iss: 'https://evil.example', exp: later() });
    answers.set('nosub', { active: true, aud: AUDIENCE, exp: later() });
    answers.set('expired', { active: true, sub: 'alice', aud: AUDIENCE, exp: Math.floor(Date.now() / 1000) - 120 });
    await expect(verify('inactive')).rejects.toThrow(/not active/);
    await expect(verify('aud')).rejects.toThrow(/"aud" claim is not accepted/);
    await expect(verify('iss')).rejects.toThrow(/"iss" claim is not accepted/);
    await expect(verify('nosub')).rejects.toThrow(/names no subject/);
    await expect(verify('expired')).rejects.toThrow(/expired/);
  });

  it('A-S7: refuses the token, with a clear reason, when the endpoint hangs, fails or answers garbage', async () => {
    answers.set('hang', 'hang');
    answers.set('fail', 500);
    answers.set('garbage', 'not json');
    await expect(createIntrospectionVerifierFor(300)('hang')).rejects.toThrow(/did not answer in time/);
    await expect(verify('fail')).rejects.toThrow(/answered HTTP 500/);
    await expect(verify('garbage')).rejects.toBeInstanceOf(TokenRejectedError);
  });
});
