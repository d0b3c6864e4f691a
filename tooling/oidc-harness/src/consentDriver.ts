/**
 * Plays the person at the browser: follows an authorization URL through the harness's login and consent pages
 * with a cookie jar, and stops at the first redirect that leaves the authorization server (the client's redirect
 * URI with `code` or `error`), without requesting it.
 */
import type { UserName } from './users.js';

/** Who logs in, and what they answer on the consent page. */
export interface ConsentChoice {
  /** The user who signs in. @default 'alice' */
  readonly user?: UserName | undefined;
  /** `deny` presses Deny (the client gets `error=access_denied`). @default 'allow' */
  readonly decision?: 'allow' | 'deny' | undefined;
}

/** Drives `authorizationUrl` to its redirect back to the client; throws when the server stops on a page of its own. */
export async function driveConsent(issuer: string, authorizationUrl: string | URL, choice: ConsentChoice = {}) {
  const origin = new URL(issuer).origin;
  const jar = new Map<string, string>();
  const form = new URLSearchParams({ user: choice.user ?? 'alice', decision: choice.decision ?? 'allow' });
  let next = new URL(String(authorizationUrl));
  for (let hop = 0; hop < 20; hop++) {
    if (next.origin !== origin) return next;
    const interaction = next.pathname.startsWith('/interaction/');
    const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (interaction) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(next, {
      method: interaction ? 'POST' : 'GET',
      headers,
      redirect: 'manual',
      ...(interaction ? { body: form.toString() } : {}),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const location = response.headers.get('location');
    if (location === null) {
      const text = (await response.text()).slice(0, 300);
      throw new Error(`The authorization server stopped at ${next.pathname} (HTTP ${response.status}): ${text}`);
    }
    await response.body?.cancel();
    next = new URL(location, next);
  }
  throw new Error(`The authorization server redirected more than 20 times from ${String(authorizationUrl)}`);
}
