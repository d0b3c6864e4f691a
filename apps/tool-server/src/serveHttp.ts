import type { ServerEndpoint } from '@mcp-tasks/protocol';
import { listen } from '@mcp-tasks/transport-http';
import { bearerToken, TOKEN_PRINCIPAL, tokenMatches } from './bearerToken.js';
import { NEVER, type NetworkOptions, type RunningTransport } from './runningTransport.js';

/**
 * Serves Streamable HTTP at `http://HOST:PORT/mcp`; the transport checks `Mcp-Param-*` headers against the
 * endpoint's tools. With a token, a request without the matching bearer token gets 401 before its body is read.
 * Resolves once listening.
 */
export async function serveHttp(endpoint: ServerEndpoint, options: NetworkOptions): Promise<RunningTransport> {
  const { token } = options;
  const server = await listen(endpoint, {
    host: options.host,
    port: options.port,
    ...(token === undefined
      ? {}
      : {
          authenticate: (req) =>
            tokenMatches(token, bearerToken(req.headers.authorization)) ? TOKEN_PRINCIPAL : undefined,
        }),
  });
  return { url: server.url.href, ended: NEVER, close: () => server.close() };
}
