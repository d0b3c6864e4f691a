import type { ServerEndpoint } from '@mcp-tasks/protocol';
import { WebSocketServerTransport } from '@mcp-tasks/transport-ws';
import { principalForToken } from './bearerToken.js';
import type { Logger } from './logger.js';
import { oauthListenOptions } from './oauthResource.js';
import { NEVER, type NetworkOptions, type RunningTransport } from './runningTransport.js';

/**
 * Serves the WebSocket binding at `ws://HOST:PORT/mcp`. With tokens, an upgrade without one of them (header or
 * `mcp.bearer.` subprotocol) is refused with 401. With `auth`, it is an OAuth resource server as on HTTP: the
 * upgrade needs a valid access token (401 with the `resource_metadata` challenge), the RFC 9728 metadata is served
 * on the same port, and a tool's required scopes are checked on every `tools/call`. Resolves once listening.
 */
export async function serveWs(
  endpoint: ServerEndpoint,
  options: NetworkOptions,
  logger: Logger,
): Promise<RunningTransport> {
  const { tokens, limits = {} } = options;
  const oauth = options.auth === undefined ? {} : await oauthListenOptions(options.auth, logger, 'ws');
  const transport = await WebSocketServerTransport.listen(endpoint, {
    host: options.host,
    port: options.port,
    maxConnections: limits.maxConnections,
    maxConnectionsPerClient: limits.maxConnectionsPerClient,
    idleTimeoutMs: limits.idleTimeoutMs,
    maxInFlight: limits.maxInFlight,
    maxListens: limits.maxListens,
    maxPayload: limits.maxMessageBytes,
    maxDepth: limits.maxDepth,
    onError: (error) => logger.debug(`websocket: ${error.message}`),
    ...(tokens.length === 0
      ? {}
      : {
          authenticate: (_req, presented) => {
            const principal = principalForToken(tokens, presented);
            if (principal === undefined) {
              logger.info({ transport: 'ws' }, 'refused an upgrade: wrong or missing bearer token');
              throw new Error('invalid token');
            }
            return principal;
          },
        }),
    ...oauth,
  });
  return { url: transport.url, ended: NEVER, close: () => transport.close() };
}
