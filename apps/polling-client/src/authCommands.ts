/**
 * `login` and `logout` against a server URL, and the OAuth fetch every other command uses once a person has logged
 * in: the stored token is sent, refreshed silently when it expires, and a refused refresh says to log in again.
 */

import { type OAuthFetchOptions, withOAuth } from '@mcp-tasks/oauth-client';
import { META } from '@mcp-tasks/protocol';
import { ExitCode, UsageError } from './cliErrors.js';
import { configDir, FileTokenStore, serverKey } from './credentialStore.js';
import { startLoopbackRedirect } from './loopbackRedirect.js';

/** How this CLI registers itself at authorization servers (dynamic registration). */
const IDENTITY: OAuthFetchOptions['identity'] = { clientName: 'mcp-tasks-polling-client' };

/** Options of `login` and `logout`. */
export interface AuthOptions {
  readonly configDir: string | undefined;
  /** The loopback redirect port; 0 picks a free one. */
  readonly port: number;
  /** How long to wait for the person to finish logging in. */
  readonly timeoutMs: number;
  readonly json: boolean;
}

/** A fetch for commands against `url`: the OAuth wrapper when a login is stored for it, else undefined. */
export async function storedLoginFetch(
  url: string,
  flag: string | undefined,
): Promise<((input: string, init: RequestInit) => Promise<Response>) | undefined> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  const store = new FileTokenStore(configDir(flag));
  if ((await store.getTokens(serverKey(parsed))) === undefined) return undefined;
  return withOAuth({ identity: IDENTITY, store });
}

/**
 * `login <url>`: forgets any token stored for the server, asks it something, and when it answers 401 runs the
 * authorization flow through a loopback redirect; the tokens land in the credentials file.
 */
export async function login(url: string, options: AuthOptions): Promise<number> {
  const server = httpUrl(url);
  const store = new FileTokenStore(configDir(options.configDir));
  const key = serverKey(server);
  await store.setTokens(key, undefined);
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const redirect = await startLoopbackRedirect({ port: options.port, timeoutMs: options.timeoutMs, say });
  try {
    const fetch = withOAuth({
      identity: IDENTITY,
      store,
      redirectUri: redirect.redirectUri,
      authorize: redirect.authorize,
    });
    const response = await fetch(server.href, discoverRequest());
    await response.body?.cancel();
    const tokens = await store.getTokens(key);
    const outcome =
      tokens === undefined
        ? { loggedIn: false, server: server.href }
        : { loggedIn: true, server: server.href, issuer: tokens.issuer, scope: tokens.scope ?? null, file: store.path };
    if (options.json) process.stdout.write(`${JSON.stringify(outcome)}\n`);
    else if (tokens === undefined)
      say(`${server.href} did not ask for authorization (HTTP ${response.status}); nothing stored`);
    else
      say(
        `logged in to ${server.href} at ${tokens.issuer}${tokens.scope ? ` (scope: ${tokens.scope})` : ''}; tokens in ${store.path}`,
      );
    return ExitCode.Completed;
  } finally {
    await redirect.close();
  }
}

/** `logout <url>`: forgets the tokens stored for the server (the client registration stays for the next login). */
export async function logout(url: string, options: AuthOptions): Promise<number> {
  const server = httpUrl(url);
  const store = new FileTokenStore(configDir(options.configDir));
  const key = serverKey(server);
  const had = (await store.getTokens(key)) !== undefined;
  await store.setTokens(key, undefined);
  if (options.json) process.stdout.write(`${JSON.stringify({ loggedOut: had, server: server.href })}\n`);
  else process.stderr.write(`${had ? 'logged out of' : 'was not logged in to'} ${server.href}\n`);
  return ExitCode.Completed;
}

function httpUrl(url: string): URL {
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new UsageError(`login and logout take an http(s):// server URL, got "${url}"`);
  return parsed;
}

/** A 2026-07-28 `server/discover`: any request does to meet the server's 401; this one is harmless. */
function discoverRequest(): RequestInit {
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'server/discover',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: { _meta: { [META.protocolVersion]: '2026-07-28', [META.clientCapabilities]: {} } },
    }),
  };
}
