/**
 * The login and consent pages of the harness, in place of oidc-provider's development pages: one form per
 * interaction, `POST /interaction/:uid` with `user` (at the login prompt) and `decision` (`allow` or `deny`), so a
 * person can click through it in a browser and a test can submit it over HTTP without parsing HTML.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { isUser, USERS } from './users.js';

type InteractionDetails = Awaited<ReturnType<Provider['interactionDetails']>>;

/** Handles `/interaction/:uid` requests; answers false for any other path. */
export function interactionRoutes(provider: Provider) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const match = /^\/interaction\/([\w-]+)$/.exec(new URL(req.url ?? '/', 'http://x').pathname);
    if (match === null) return false;
    try {
      const details = await provider.interactionDetails(req, res);
      if (req.method === 'GET') page(res, details);
      else if (req.method === 'POST') await submit(provider, req, res, details, new URLSearchParams(await read(req)));
      else res.writeHead(405, { allow: 'GET, POST' }).end();
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`Interaction failed: ${String(error)}`);
    }
    return true;
  };
}

async function read(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

async function submit(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  details: InteractionDetails,
  form: URLSearchParams,
): Promise<void> {
  if (form.get('decision') !== 'allow') {
    const result = { error: 'access_denied', error_description: 'The user denied the authorization request' };
    return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }
  if (details.prompt.name === 'login') {
    const user = form.get('user');
    if (!isUser(user)) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`Unknown user ${JSON.stringify(user)}`);
      return;
    }
    return provider.interactionFinished(req, res, { login: { accountId: user } }, { mergeWithLastSubmission: false });
  }
  const grantId = await grantEverythingAsked(provider, details);
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

/** The consent a person gives by pressing Allow: every scope and resource the client asked for. */
async function grantEverythingAsked(provider: Provider, details: InteractionDetails): Promise<string> {
  const accountId = details.session?.accountId;
  const clientId = String(details.params.client_id);
  const grant =
    (details.grantId === undefined ? undefined : await provider.Grant.find(details.grantId)) ??
    new provider.Grant({ accountId, clientId });
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  if (missing.missingOIDCScope !== undefined) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims !== undefined) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(resource, scopes.join(' '));
  return grant.save();
}

function page(res: ServerResponse, details: InteractionDetails): void {
  const html = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const login = details.prompt.name === 'login';
  const who = login
    ? `<p><label>Sign in as <select name="user">${Object.entries(USERS)
        .map(([id, user]) => `<option value="${id}">${html(user.name)} (${id})</option>`)
        .join('')}</select></label></p>`
    : `<p>Signed in as <b>${html(String(details.session?.accountId))}</b>.</p>`;
  const asked = html(String(details.params.scope ?? '(no scope)'));
  const resource = html(String(details.params.resource ?? '(no resource)'));
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test authorization server</title></head>
<body><h1>Test authorization server</h1>
<p>The client <code>${html(String(details.params.client_id))}</code> asks for <code>${asked}</code>
on <code>${resource}</code>.</p>
<form method="post" action="/interaction/${html(details.uid)}">${who}
<button name="decision" value="allow">Allow</button> <button name="decision" value="deny">Deny</button>
</form></body></html>`);
}
