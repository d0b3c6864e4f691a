/** The `--auth-*` command-line options: the server as an OAuth resource server. */
import type { OAuthOption } from './oauthResource.js';

/** The `parseArgs` entries of the `--auth-*` options. */
export const AUTH_OPTIONS = {
  'auth-issuer': { type: 'string' },
  'auth-resource': { type: 'string' },
  'auth-jwks': { type: 'string' },
  'auth-introspection': { type: 'string' },
  'auth-client-id': { type: 'string' },
} as const;

/** The help lines of the `--auth-*` options. */
export const AUTH_USAGE = `  --auth-issuer URL           accept OAuth access tokens from this issuer (http, ws); needs --auth-resource
  --auth-resource URL         this server's public endpoint URL: the tokens' audience (RFC 8707)
  --auth-jwks URL             the issuer's key set for JWT access tokens (default: from the issuer's metadata)
  --auth-introspection URL    check opaque tokens at this RFC 7662 endpoint instead of as JWTs; needs
                              --auth-client-id and the secret in $MCP_TASKS_AUTH_CLIENT_SECRET
  --auth-client-id ID         this server's client id at the authorization server (introspection)`;

/** The env variable holding the introspection client secret (kept off the command line, where `ps` shows it). */
export const AUTH_SECRET_ENV = 'MCP_TASKS_AUTH_CLIENT_SECRET';

type Values = Record<string, string | boolean | string[] | undefined>;

/**
 * The `--auth-*` options as an {@link OAuthOption}, or undefined when none is given. `fail` makes the usage error
 * for a command line that cannot be run.
 */
export function parseAuth(
  values: Values,
  context: {
    transport: string;
    tokens: readonly string[];
    /** `--console`: its page cannot log in with OAuth, so the two do not go together. */
    console: boolean;
    env: Readonly<Record<string, string | undefined>>;
    fail: (message: string) => Error;
  },
): OAuthOption | undefined {
  const { fail } = context;
  const text = (name: keyof typeof AUTH_OPTIONS) => {
    const value = values[name];
    return typeof value === 'string' ? value : undefined;
  };
  const issuer = text('auth-issuer');
  const resource = text('auth-resource');
  if (Object.keys(AUTH_OPTIONS).every((name) => values[name] === undefined)) return undefined;
  if (issuer === undefined || resource === undefined) throw fail('--auth-issuer and --auth-resource go together');
  if (context.transport === 'stdio') throw fail('--auth-issuer applies to --transport http and ws only');
  if (context.tokens.length > 0) throw fail('--auth-issuer and --token are exclusive');
  // Serving the console would serve its endpoint without the resource server's checks.
  if (context.console) throw fail('--auth-issuer and --console are exclusive (the console cannot log in with OAuth)');
  for (const name of ['auth-issuer', 'auth-resource', 'auth-jwks', 'auth-introspection'] as const) {
    const value = text(name);
    if (value !== undefined && !URL.canParse(value)) throw fail(`--${name} must be a URL (got "${value}")`);
  }
  return { issuer, resource, jwksUri: text('auth-jwks'), introspection: parseIntrospection(text, context) };
}

function parseIntrospection(
  text: (name: keyof typeof AUTH_OPTIONS) => string | undefined,
  context: { env: Readonly<Record<string, string | undefined>>; fail: (message: string) => Error },
): OAuthOption['introspection'] {
  const endpoint = text('auth-introspection');
  const clientId = text('auth-client-id');
  if (endpoint === undefined && clientId === undefined) return undefined;
  const clientSecret = context.env[AUTH_SECRET_ENV];
  if (endpoint === undefined || clientId === undefined || clientSecret === undefined || clientSecret === '')
    throw context.fail(`--auth-introspection needs --auth-client-id and the secret in $${AUTH_SECRET_ENV}`);
  return { endpoint, clientId, clientSecret };
}
