/**
 * OAuth end to end with real processes: a real authorization server (oidc-provider, in this process), the tool
 * server as a resource server (`--auth-issuer`), and the polling client logging in as two people through its
 * loopback redirect, the consent page driven over HTTP as a browser would.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ConsentChoice, type OidcHarness, startOidcHarness } from '@mcp-tasks/oidc-harness';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { builtArtefacts, killAll, killSuite, runClient, startClient, startServer } from './processes.js';

let harness: OidcHarness;
let url: string;
let dir: string;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

/** Starts the tool server as a resource server of `issuer`; resolves with its endpoint URL. */
async function protectedServer(issuer: string, extra: readonly string[] = []): Promise<string> {
  const port = await freePort();
  const resource = `http://127.0.0.1:${port}/mcp`;
  const server = await startServer(
    'http',
    ['--port', String(port), '--auth-issuer', issuer, '--auth-resource', resource, ...extra],
    'suite',
  );
  return server.flags[1] as string;
}

const configOf = (user: string) => join(dir, `config-${user}`);
const as = (user: string) => ['--config-dir', configOf(user), '--journal', join(dir, `journal-${user}.json`)];

/** `login` as a person: read the printed URL, consent in the "browser", follow the redirect to the CLI. */
async function login(server: string, config: string, choice: ConsentChoice = {}) {
  const client = startClient(['login', server, '--config-dir', configOf(config)]);
  const [page] = await client.waitFor(/http:\/\/127\.0\.0\.1:\d+\/auth\?\S+/, { stream: 'stderr' });
  const back = await harness.consent(page, { user: config === 'bob' ? 'bob' : 'alice', ...choice });
  await (await fetch(back)).text();
  return { code: await client.exited(), stderr: client.stderr() };
}

function credentials(user: string) {
  const path = join(configOf(user), 'credentials.json');
  return { path, file: JSON.parse(readFileSync(path, 'utf8')) as { tokens: Record<string, { accessToken: string }> } };
}

function spoilAccessToken(user: string): string {
  const { path, file } = credentials(user);
  const entry = file.tokens[url];
  if (entry === undefined) throw new Error(`no tokens for ${url}`);
  entry.accessToken = 'expired-or-revoked';
  writeFileSync(path, JSON.stringify(file));
  return entry.accessToken;
}

beforeAll(async () => {
  const missing = builtArtefacts();
  if (missing.length > 0) throw new Error(`build first (pnpm build); missing ${missing.join(', ')}`);
  dir = mkdtempSync(join(tmpdir(), 'polling-client-oauth-'));
  harness = await startOidcHarness();
  url = await protectedServer(harness.issuer);
});
afterEach(() => killAll());
afterAll(async () => {
  await killSuite();
  await harness?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('polling client login against a real authorization server', () => {
  it('without a login the server answers 401 and the client says how to log in', async () => {
    const run = await runClient(['tools', '--url', url, ...as('nobody')]);
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/HTTP 401.*log in: mcp-tasks-polling-client login/);
  });

  it('A-S8: alice logs in and runs a task; bob, logged in too, can neither get nor cancel it', async () => {
    const alice = await login(url, 'alice');
    expect(alice.code, alice.stderr).toBe(0);
    expect(alice.stderr).toMatch(/logged in to .* at http:\/\/127\.0\.0\.1:\d+ \(scope: [^)]*deploy/);
    const { path, file } = credentials('alice');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(Object.keys(file.tokens)).toEqual([url]);

    const call = await runClient([
      'call',
      'count_steps',
      '--args',
      '{"steps":1000,"intervalMs":60000}',
      '--detach',
      '--url',
      url,
      ...as('alice'),
    ]);
    expect(call.code, call.stderr).toBe(0);
    const taskId = call.stdout.trim().split(/\s+/).at(-1) as string;

    expect((await login(url, 'bob')).code).toBe(0);
    for (const command of ['status', 'cancel']) {
      const bob = await runClient([command, taskId, '--url', url, ...as('bob')]);
      expect(bob.code, `${command}: ${bob.stderr}`).toBe(3);
      expect(bob.stderr).toMatch(/does not know task/);
    }
    const status = await runClient(['status', taskId, '--url', url, '--json', ...as('alice')]);
    expect(JSON.parse(status.stdout)).toMatchObject({ taskId, status: 'working' });
    expect((await runClient(['cancel', taskId, '--url', url, ...as('alice')])).code).toBe(0);
  });

  it('refreshes a refused access token silently, and says to log in again when the refresh is refused', async () => {
    if ((await login(url, 'alice-refresh')).code !== 0) throw new Error('login failed');
    const spoiled = spoilAccessToken('alice-refresh');
    const tools = await runClient(['tools', '--url', url, ...as('alice-refresh')]);
    expect(tools.code, tools.stderr).toBe(0);
    expect(tools.stdout).toMatch(/count_steps/);
    expect(credentials('alice-refresh').file.tokens[url]?.accessToken).not.toBe(spoiled);

    harness.expireRefreshTokens();
    spoilAccessToken('alice-refresh');
    const expired = await runClient(['tools', '--url', url, ...as('alice-refresh')]);
    expect(expired.code).toBe(4);
    expect(expired.stderr).toMatch(/login has expired.*log in again/);
  });

  it('a denied consent is a clear error and stores nothing; logout forgets the tokens', async () => {
    const denied = await login(url, 'bob', { decision: 'deny' });
    expect(denied.code).toBe(4);
    expect(denied.stderr).toMatch(/Login refused: Consent was denied/);
    expect(credentials('bob').file.tokens[url]).toBeUndefined();

    expect((await login(url, 'bob')).code).toBe(0);
    const out = await runClient(['logout', url, '--config-dir', configOf('bob')]);
    expect(out.stderr).toMatch(/logged out of/);
    expect(credentials('bob').file.tokens[url]).toBeUndefined();
  });

  it('refuses a server whose authorization server does not identify as the issuer it names', async () => {
    // An impostor serves the real server's metadata, which names the real issuer, not the impostor's URL.
    const metadata = await (await fetch(`${harness.issuer}/.well-known/openid-configuration`)).text();
    const impostor = createHttpServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(metadata),
    );
    await new Promise<void>((done) => impostor.listen(0, '127.0.0.1', done));
    try {
      const issuer = `http://127.0.0.1:${(impostor.address() as { port: number }).port}`;
      const wrong = await protectedServer(issuer, ['--auth-jwks', `${harness.issuer}/jwks`]);
      const run = await runClient(['login', wrong, '--config-dir', configOf('alice'), '--login-timeout', '20']);
      expect(run.code, run.stderr).toBe(4);
      expect(run.stderr).toMatch(/Wrong issuer: .*unusable/);
    } finally {
      impostor.closeAllConnections();
      await new Promise((done) => impostor.close(done));
    }
  });
});
