/**
 * Real HTTP servers on 127.0.0.1 for the flow tests: one origin serving an MCP-like protected resource (`/mcp`), its
 * RFC 9728 metadata, an authorization server (metadata, `/authorize`, `/token`) and an enterprise identity
 * provider (`/idp/token`). Each behaviour a test needs is a knob; every request is recorded.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the servers received. */
export interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly form: URLSearchParams;
}

/** What a handler answers: status, JSON body, extra headers. */
export interface Answer {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/** Handlers a test plugs in; `undefined` answers 404. */
export interface Routes {
  /** Authorization server metadata additions (e.g. `dpop_signing_alg_values_supported`). */
  readonly asMetadata?: Record<string, unknown>;
  /** The token endpoint. */
  readonly token?: (request: Recorded) => Answer | Promise<Answer>;
  /** The identity provider's token endpoint (`/idp/token`). */
  readonly idpToken?: (request: Recorded) => Answer | Promise<Answer>;
  /** The protected resource (`/mcp`). */
  readonly resource?: (request: Recorded) => Answer | Promise<Answer>;
}

/** A running set of servers. */
export interface LocalServers {
  /** `http://127.0.0.1:<port>`: the issuer, and the resource's origin. */
  readonly base: string;
  /** Every request, in order. */
  readonly requests: Recorded[];
  close(): Promise<void>;
}

/** Starts the servers on a free port. */
export async function startServers(routes: Routes): Promise<LocalServers> {
  const requests: Recorded[] = [];
  let base = '';
  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => reply(res, { status: 500, body: { error: String(error) } }));
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', base);
    const text = Buffer.concat(chunks).toString('utf8');
    const form = req.headers['content-type']?.includes('form') ? new URLSearchParams(text) : new URLSearchParams();
    const request = { method: req.method ?? 'GET', path: url.pathname, headers: req.headers, form };
    requests.push(request);
    reply(res, await route(request, url));
  }
  async function route(request: Recorded, url: URL): Promise<Answer> {
    switch (request.path) {
      case '/.well-known/oauth-protected-resource/mcp':
        return { status: 200, body: { resource: `${base}/mcp`, authorization_servers: [base] } };
      case '/.well-known/oauth-authorization-server':
        return { status: 200, body: asMetadata(base, routes.asMetadata) };
      case '/authorize':
        return authorize(url, base);
      case '/token':
        return routes.token?.(request) ?? { status: 404 };
      case '/idp/token':
        return routes.idpToken?.(request) ?? { status: 404 };
      case '/mcp':
        return routes.resource?.(request) ?? { status: 404 };
      default:
        return { status: 404 };
    }
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function asMetadata(base: string, extra: Record<string, unknown> | undefined): Record<string, unknown> {
  return {
    issuer: base,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'none'],
    ...extra,
  };
}

/** Approves at once: redirects with a code, the state and the issuer (RFC 9207). */
function authorize(url: URL, base: string): Answer {
  const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
  redirect.searchParams.set('code', 'code-1');
  redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
  redirect.searchParams.set('iss', base);
  return { status: 302, headers: { location: redirect.href } };
}

function reply(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
  res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
}

/** The test's "browser": follows the authorization endpoint's redirect. */
export async function followRedirect(url: URL): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual' });
  await response.body?.cancel();
  return new URL(response.headers.get('location') ?? '', url);
}

/** A 401 with a challenge naming the resource metadata. */
export function unauthorized(base: string, scheme = 'Bearer', extra = ''): Answer {
  const metadata = `${base}/.well-known/oauth-protected-resource/mcp`;
  return { status: 401, headers: { 'www-authenticate': `${scheme} ${extra}resource_metadata="${metadata}"` } };
}
