import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createIntrospectionVerifier,
  type IntrospectionVerifierOptions,
  principalOf,
  TokenRejectedError,
} from '../src/index.js';

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

const verify = createIntrospectionVerifierFor();
function createIntrospectionVerifierFor(cache: IntrospectionVerifierOptions['cache'] = false) {
  return (token: string) => cached(cache)(token);
}
/**
 * One verifier (one cache) against the fake endpoint. Only the hanging case needs a short deadline: a loaded CI
 * machine can take over 300 ms to answer the first request.
 */
const cached = (cache: IntrospectionVerifierOptions['cache'], timeoutMs = 10_000) =>
  createIntrospectionVerifier({
    introspectionEndpoint: `${base}/introspect`,
    issuer: ISSUER,
    audience: AUDIENCE,
    clientId: 'mcp server',
    clientSecret: 's3cret:x',
    timeoutMs,
    cache,
  });
/** How many times the endpoint was asked about `token`. */
const asked = (token: string) => seen.filter((call) => new URLSearchParams(call.body).get('token') === token).length;
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
    await expect(cached(false, 300)('hang')).rejects.toThrow(/did not answer in time/);
    await expect(verify('fail')).rejects.toThrow(/answered HTTP 500/);
    await expect(verify('garbage')).rejects.toBeInstanceOf(TokenRejectedError);
  });
});

describe('createIntrospectionVerifier: the answer cache', () => {
  // Only Date is faked: the fake endpoint and the fetch deadline keep real timers.
  const clock = () => vi.useFakeTimers({ toFake: ['Date'] });
  const advance = (ms: number) => vi.setSystemTime(Date.now() + ms);
  afterEach(() => {
    vi.useRealTimers();
  });
  const active = (sub: string, exp = later()) => ({ active: true, sub, aud: AUDIENCE, iss: ISSUER, exp });

  it('reuses an accepted token’s answer for maxTtlMs (default 60 s), then asks again', async () => {
    clock();
    answers.set('c-good', active('alice'));
    const verify = cached(undefined);
    await verify('c-good');
    advance(59_000);
    expect(await verify('c-good')).toMatchObject({ principal: principalOf(ISSUER, 'alice') });
    expect(asked('c-good')).toBe(1);
    advance(2000);
    await verify('c-good');
    expect(asked('c-good')).toBe(2);
    const short = cached({ maxTtlMs: 1000 });
    answers.set('c-short', active('alice'));
    await short('c-short');
    advance(1001);
    await short('c-short');
    expect(asked('c-short')).toBe(2);
  });

  it('never reuses an answer past the token’s exp', async () => {
    clock();
    answers.set('c-exp', active('alice', Math.floor(Date.now() / 1000) + 10));
    const verify = cached({});
    await verify('c-exp');
    advance(9000);
    await verify('c-exp');
    expect(asked('c-exp')).toBe(1);
    advance(2000);
    // Past exp but within the leeway: still accepted, and asked about each time now.
    await verify('c-exp');
    await verify('c-exp');
    expect(asked('c-exp')).toBe(3);
  });

  it('keeps a refused token’s answer briefly (negativeTtlMs, default 5 s)', async () => {
    clock();
    answers.set('c-inactive', { active: false });
    answers.set('c-aud', { ...active('alice'), aud: 'https://other.example/mcp' });
    const verify = cached({});
    for (const token of ['c-inactive', 'c-aud']) {
      await expect(verify(token)).rejects.toBeInstanceOf(TokenRejectedError);
      await expect(verify(token)).rejects.toBeInstanceOf(TokenRejectedError);
      expect(asked(token)).toBe(1);
    }
    advance(5001);
    await expect(verify('c-inactive')).rejects.toThrow(/not active/);
    expect(asked('c-inactive')).toBe(2);
  });

  it('never keeps a failure of the endpoint, and shares one call among concurrent verifications', async () => {
    answers.set('c-fail', 500);
    const verify = cached({});
    await expect(verify('c-fail')).rejects.toThrow(/HTTP 500/);
    await expect(verify('c-fail')).rejects.toThrow(/HTTP 500/);
    expect(asked('c-fail')).toBe(2);
    answers.set('c-many', active('bob'));
    const all = await Promise.all(Array.from({ length: 5 }, () => verify('c-many')));
    expect(all.map((v) => v.subject)).toEqual(['bob', 'bob', 'bob', 'bob', 'bob']);
    expect(asked('c-many')).toBe(1);
  });

  it('holds at most maxEntries tokens, forgetting the least recently used; false turns it off', async () => {
    for (const token of ['c-1', 'c-2', 'c-3']) answers.set(token, active(token));
    const verify = cached({ maxEntries: 2 });
    await verify('c-1');
    await verify('c-2');
    await verify('c-1');
    await verify('c-3');
    await verify('c-1');
    await verify('c-2');
    expect([asked('c-1'), asked('c-2'), asked('c-3')]).toEqual([1, 2, 1]);
    answers.set('c-off', active('alice'));
    const uncached = cached(false);
    await uncached('c-off');
    await uncached('c-off');
    expect(asked('c-off')).toBe(2);
  });
});
