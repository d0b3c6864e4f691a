import type { ServerEndpoint } from '@mcp-tasks/protocol';
import { listen } from '@mcp-tasks/transport-http';
import { bearerToken, principalForToken } from './bearerToken.js';
import type { Logger } from './logger.js';
import { oauthListenOptions } from './oauthResource.js';
import { NEVER, type NetworkOptions, type RunningTransport } from './runningTransport.js';

/**
 * Serves Streamable HTTP at `http://HOST:PORT/mcp`; the transport checks `Mcp-Param-*` headers against the
 * endpoint's tools. With tokens, a request without one of the bearer tokens gets 401 before its body is read.
 * Resolves once listening.
 */
export async function serveHttp(
  endpoint: ServerEndpoint,
  options: NetworkOptions,
  logger: Logger,
): Promise<RunningTransport> {
  const { tokens, limits = {} } = options;
  const oauth = options.auth === undefined ? {} : await oauthListenOptions(options.auth, logger);
  const server = await listen(endpoint, {
    host: options.host,
    port: options.port,
    maxBodyBytes: limits.maxMessageBytes,
    maxDepth: limits.maxDepth,
    bodyTimeoutMs: limits.requestTimeoutMs,
    limits: {
      maxConnections: limits.maxConnections,
      maxConnectionsPerClient: limits.maxConnectionsPerClient,
      headersTimeoutMs: limits.headersTimeoutMs,
      requestTimeoutMs: limits.requestTimeoutMs,
      keepAliveTimeoutMs: limits.idleTimeoutMs,
    },
    ...(tokens.length === 0
      ? {}
      : {
          authenticate: (req) => {
            const principal = principalForToken(tokens, bearerToken(req.headers.authorization));
            if (principal !== undefined) return principal;
            logger.info(
              { transport: 'http', remote: req.socket.remoteAddress },
              'refused a request: wrong or missing bearer token',
            );
            return undefined;
          },
        }),
    ...oauth,
  });
  const { maxConnections, maxConnectionsPerClient, fdLimit } = server.limits;
  logger.info(
    `http: at most ${maxConnections} connections in total (file-descriptor limit ${fdLimit ?? 'unknown'}), ` +
      `${maxConnectionsPerClient} per client address`,
  );
  return { url: server.url.href, ended: NEVER, close: () => server.close() };
}
