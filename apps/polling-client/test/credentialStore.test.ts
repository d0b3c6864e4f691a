import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/cliArgs.js';
import { configDir, FileTokenStore, serverKey } from '../src/credentialStore.js';
import { startLoopbackRedirect } from '../src/loopbackRedirect.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'credential-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('FileTokenStore', () => {
  it('keeps tokens per server and registrations per issuer in a 0600 file in a 0700 directory', async () => {
    const store = new FileTokenStore(join(dir, 'config'));
    await store.setTokens('http://a/mcp', { accessToken: 'A', tokenType: 'Bearer', issuer: 'http://as' });
    await store.setTokens('http://b/mcp', { accessToken: 'B', tokenType: 'Bearer', issuer: 'http://as' });
    await store.setClient('http://as', { clientId: 'c1' });
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'config')).mode & 0o777).toBe(0o700);
    const again = new FileTokenStore(join(dir, 'config'));
    expect((await again.getTokens('http://a/mcp'))?.accessToken).toBe('A');
    expect(await again.getClient('http://as')).toEqual({ clientId: 'c1' });
    await again.setTokens('http://a/mcp', undefined);
    expect(await store.getTokens('http://a/mcp')).toBeUndefined();
    expect((await store.getTokens('http://b/mcp'))?.accessToken).toBe('B');
  });

  it('says to delete a corrupt file instead of crashing', async () => {
    const store = new FileTokenStore(dir);
    writeFileSync(store.path, '{nope');
    await expect(store.getTokens('x')).rejects.toThrow(/not valid JSON; delete it and log in again/);
  });

  it('keys a server as the OAuth client does; the directory follows --config-dir, then the env', () => {
    expect(serverKey('http://h:1/mcp#x')).toBe('http://h:1/mcp');
    expect(serverKey('http://h:1/')).toBe('http://h:1');
    expect(configDir('/flag', { MCP_TASKS_CONFIG_DIR: '/env' })).toBe('/flag');
    expect(configDir(undefined, { MCP_TASKS_CONFIG_DIR: '/env' })).toBe('/env');
  });
});

describe('loopback redirect', () => {
  it('prints the URL and resolves with the redirect the browser makes', async () => {
    const said: string[] = [];
    const redirect = await startLoopbackRedirect({ port: 0, timeoutMs: 5000, say: (l) => said.push(l) });
    try {
      expect(redirect.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const waiting = redirect.authorize(new URL('http://as.example/auth?x=1'));
      expect(said.join('\n')).toContain('http://as.example/auth?x=1');
      const page = await fetch(`${redirect.redirectUri}?code=c&state=s`);
      expect(await page.text()).toMatch(/Logged in/);
      expect((await waiting).searchParams.get('code')).toBe('c');
    } finally {
      await redirect.close();
    }
  });

  it('gives up after the login timeout', async () => {
    const redirect = await startLoopbackRedirect({ port: 0, timeoutMs: 50, say: () => undefined });
    try {
      await expect(redirect.authorize(new URL('http://as.example/auth'))).rejects.toThrow(/--login-timeout/);
    } finally {
      await redirect.close();
    }
  });
});

describe('login and logout arguments', () => {
  it('parse the URL, --config-dir, --port and --login-timeout', () => {
    expect(parseCliArgs(['login', 'http://h/mcp', '--config-dir', 'd', '--port', '8765'])).toEqual({
      name: 'login',
      url: 'http://h/mcp',
      options: { configDir: 'd', port: 8765, timeoutMs: 300_000, json: false },
    });
    expect(parseCliArgs(['logout', 'http://h/mcp'])).toMatchObject({ name: 'logout', url: 'http://h/mcp' });
    expect(() => parseCliArgs(['login', 'http://h/mcp', '--port', '99999'])).toThrow(/--port must be/);
  });
});
