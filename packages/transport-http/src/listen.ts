import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MessageHandler, ServerEndpoint } from '@mcp-tasks/protocol';
import { createHttpHandler } from './createHttpHandler.js';
import { processFdLimit } from './fdLimit.js';
import type { HttpHandlerOptions } from './httpHandlerOptions.js';
import {
  type ConnectionCaps,
  connectionCaps,
  type HttpServerLimits,
  limitConnections,
  serverOptions,
} from './serverLimits.js';

/** Options of {@link listen}. */
export interface ListenOptions extends HttpHandlerOptions {
  /** TCP port; 0 picks a free one. Default 0. */
  readonly port?: number;
  /** Interface to bind. Default `127.0.0.1` (local servers SHOULD bind to localhost only). */
  readonly host?: string;
  /** The MCP endpoint path; other paths get 404. Default `/mcp`. */
  readonly path?: string;
  /** Connection caps and timeouts; see {@link HttpServerLimits} for each default. */
  readonly limits?: HttpServerLimits;
  /**
   * JSON documents answered to `GET` at other paths, such as the RFC 9728 protected-resource metadata at
   * `/.well-known/oauth-protected-resource/mcp` (see `@mcp-tasks/oauth-resource-server`). Default none.
   */
  readonly documents?: Readonly<Record<string, unknown>>;
}

/** A running server started by {@link listen}. */
export interface HttpServerHandle {
  /**
   * The underlying `node:http` server, already listening; stop it with {@link HttpServerHandle.close} rather than
   * directly, so open streams and sessions end too.
   */
  readonly server: Server;
  /** The endpoint URL, with the actual port. */
  readonly url: URL;
  /**
   * The connection caps in force: `maxConnections` as lowered below the process's file-descriptor limit (read at
   * start; log it), and that limit.
   */
  readonly limits: ConnectionCaps;
  /**
   * Stops accepting connections, ends every 2025-era session and closes the open connections, which ends their
   * streams and aborts their in-flight requests. Idempotent; resolves when the server is closed.
   */
  close(): Promise<void>;
}

/**
 * Starts a node:http server with the MCP endpoint at `path` (see `createHttpHandler`; pass the runtime itself, an
 * `McpServer` is a {@link ServerEndpoint}). Resolves once it is listening. The server is bounded by default:
 * connections in total and per client, header, request and keep-alive timeouts (see {@link HttpServerLimits}).
 */
export function listen(
  endpoint: ServerEndpoint | MessageHandler,
  options: ListenOptions = {},
): Promise<HttpServerHandle> {
  const path = options.path ?? '/mcp';
  const host = options.host ?? '127.0.0.1';
  const handler = createHttpHandler(endpoint, options);
  const limits = options.limits ?? {};
  const caps = connectionCaps(limits, processFdLimit());
  let refusedAtAccept: ReturnType<typeof limitConnections> = () => false;
  const server = createServer(serverOptions(limits), (req, res) => {
    // Its connection was answered 429/503 and is closing; the request came in before the close reached the client.
    if (refusedAtAccept(req)) return void req.socket.destroy();
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query === -1 ? url : url.slice(0, query);
    if (pathname === path) return handler(req, res);
    const documents = options.documents ?? {};
    const document = req.method === 'GET' && Object.hasOwn(documents, pathname) ? documents[pathname] : undefined;
    if (document !== undefined) return sendDocument(res, document);
    res.writeHead(404, { 'content-length': 0 });
    res.end();
  });
  refusedAtAccept = limitConnections(server, caps);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const urlHost = host.includes(':') ? `[${host}]` : host;
      let closing: Promise<void> | undefined;
      resolve({
        server,
        url: new URL(`http://${urlHost}:${port}${path}`),
        limits: caps,
        close: () => {
          closing ??= new Promise((done) => {
            handler.close();
            server.close(() => done());
            server.closeAllConnections();
          });
          return closing;
        },
      });
    });
  });
}

function sendDocument(res: ServerResponse, document: unknown): void {
  const body = JSON.stringify(document);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
