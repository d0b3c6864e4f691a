/**
 * `pnpm demo --auth`: the demo behind a real authorization server. A private oidc-provider with two users starts
 * on 127.0.0.1, the tool server accepts only its tokens, and the polling client logs in as alice through its
 * loopback redirect; the demo plays the person at the browser (it submits the consent page over HTTP). At the end
 * bob logs in too and is shown that alice's task does not exist for him.
 */
import { createServer } from 'node:net';
import type { OidcHarness } from '@mcp-tasks/oidc-harness';

/** What the demo's `start` gives back, as far as logging in needs it. */
interface Started {
  output(): string;
  readonly exited: Promise<number>;
  seen(pattern: RegExp): Promise<void>;
}

/** Starts the authorization server (imported only for `--auth`, so the plain demo never loads oidc-provider). */
export async function startAuthorizationServer(): Promise<OidcHarness> {
  const { startOidcHarness } = await import('@mcp-tasks/oidc-harness');
  return startOidcHarness();
}

/** A free port on 127.0.0.1: the tool server's resource URL (the tokens' audience) must be known before it starts. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

/** The tool server's flags that make it a resource server of `issuer` on `port`. */
export function protectedServerFlags(issuer: string, port: number): string[] {
  return ['--port', String(port), '--auth-issuer', issuer, '--auth-resource', `http://127.0.0.1:${port}/mcp`];
}

/**
 * Runs `login` (started by `run`), waits for the URL it prints for a person, presses Allow as `user` on the
 * consent page, and follows the redirect back to the client as a browser would. Resolves with the exit code.
 */
export async function loginAs(harness: OidcHarness, user: 'alice' | 'bob', run: () => Started): Promise<number> {
  const login = run();
  const page = /http:\/\/127\.0\.0\.1:\d+\/auth\?\S+/;
  await login.seen(page);
  const back = await harness.consent(login.output().match(page)?.[0] ?? '', { user });
  await (await fetch(back)).text();
  return login.exited;
}
