import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerEndpoint } from '@mcp-tasks/protocol';
import { createHttpHandler } from '@mcp-tasks/transport-http/server';
import { WebSocketServerTransport } from '@mcp-tasks/transport-ws';
import { bearerToken, principalForToken } from './bearerToken.js';
import type { Logger } from './logger.js';
import { NEVER, type NetworkOptions, type RunningTransport } from './runningTransport.js';

/** Where `apps/task-console` puts its built bundle, seen from this module's `dist/` folder. */
export const CONSOLE_BUNDLE_DIR = fileURLToPath(new URL('../../task-console/dist/', import.meta.url));
/** The path the console is served under. */
export const CONSOLE_PATH = '/console';
const ENDPOINT_PATH = '/mcp';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
};

/**
 * The page may connect to other MCP servers than this one (any http(s)/ws(s) URL the person types), shows images
 * and audio from tool results as `data:` URLs, and runs no inline script.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  'connect-src *',
  "img-src 'self' data:",
  'media-src data:',
  "style-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** What the page reads from `/console/endpoint.json` to connect to the server that served it. */
export interface ConsoleEndpoint {
  readonly transport: 'http' | 'ws';
  readonly path: string;
  readonly tokenRequired: boolean;
}

/**
 * A request listener for the console's static files under `/console/` (plus the generated `endpoint.json`).
 * Answers GET and HEAD below `/console` and returns true; returns false for every other path, leaving the request
 * to the caller. Files are read from `root` only (no path may escape it); a missing file is 404.
 */
export function consoleRequestListener(
  root: string,
  endpoint: ConsoleEndpoint,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const base = normalize(root + sep);
  const endpointJson = JSON.stringify(endpoint);
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/' || path === CONSOLE_PATH) {
      res.writeHead(302, { location: `${CONSOLE_PATH}/`, 'content-length': 0 }).end();
      return true;
    }
    if (!path.startsWith(`${CONSOLE_PATH}/`)) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-length': 0 }).end();
      return true;
    }
    const name = decodeURIComponentSafe(path.slice(CONSOLE_PATH.length + 1)) ?? '';
    if (name === 'endpoint.json') {
      send(req, res, 200, '.json', Buffer.from(endpointJson), 'no-store');
      return true;
    }
    const file = normalize(join(base, name === '' ? 'index.html' : name));
    if (!file.startsWith(base) || name.includes('\0')) {
      res.writeHead(404, { 'content-length': 0 }).end();
      return true;
    }
    void serveFile(req, res, file);
    return true;
  };
}

async function serveFile(req: IncomingMessage, res: ServerResponse, file: string): Promise<void> {
  try {
    if (!(await stat(file)).isFile()) throw new Error('not a file');
    const body = await readFile(file);
    // Vite names bundled assets by content hash: they never change, while index.html must always be fresh.
    const cache = file.includes(`${sep}assets${sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache';
    send(req, res, 200, extname(file), body, cache);
  } catch {
    if (!res.headersSent) res.writeHead(404, { 'content-length': 0 }).end();
  }
}

function send(req: IncomingMessage, res: ServerResponse, status: number, ext: string, body: Buffer, cache: string) {
  res.writeHead(status, {
    'content-type': CONTENT_TYPES[ext] ?? 'application/octet-stream',
    'content-length': body.length,
    'cache-control': cache,
    'x-content-type-options': 'nosniff',
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'referrer-policy': 'no-referrer',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function decodeURIComponentSafe(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** Options of {@link serveWithConsole}. */
export interface ConsoleServeOptions extends NetworkOptions {
  readonly transport: 'http' | 'ws';
  /** The built console bundle. @default CONSOLE_BUNDLE_DIR */
  readonly consoleRoot?: string | undefined;
}

/** A transport that also serves the console; `consoleUrl` is the page to open. */
export interface RunningConsoleTransport extends RunningTransport {
  readonly consoleUrl: string;
}

/**
 * Serves the MCP endpoint (Streamable HTTP, or the WebSocket binding) at `/mcp` and the task console under
 * `/console/` on one port, so the page connects to its own origin: no CORS, and the endpoint keeps its
 * DNS-rebinding protection. Fails before listening when the bundle has not been built.
 */
export async function serveWithConsole(
  mcp: ServerEndpoint,
  options: ConsoleServeOptions,
  logger: Logger,
): Promise<RunningConsoleTransport> {
  const root = options.consoleRoot ?? CONSOLE_BUNDLE_DIR;
  await stat(join(root, 'index.html')).catch(() => {
    throw new Error(
      `no console bundle at ${root}; build it with: npx -y pnpm@10.34.8 --filter @mcp-tasks/app-task-console build`,
    );
  });
  const { tokens, transport } = options;
  const serveStatic = consoleRequestListener(root, {
    transport,
    path: ENDPOINT_PATH,
    tokenRequired: tokens.length > 0,
  });
  const httpHandler =
    transport === 'http'
      ? createHttpHandler(mcp, {
          ...(tokens.length === 0
            ? {}
            : {
                authenticate: (req) => principalForToken(tokens, bearerToken(req.headers.authorization)),
              }),
        })
      : undefined;
  const server = createServer((req, res) => {
    if (serveStatic(req, res)) return;
    const path = (req.url ?? '/').split('?')[0];
    if (httpHandler !== undefined && path === ENDPOINT_PATH) return httpHandler(req, res);
    res.writeHead(404, { 'content-length': 0 }).end();
  });
  const ws =
    transport === 'ws'
      ? WebSocketServerTransport.attach(server, mcp.handle, {
          path: ENDPOINT_PATH,
          onError: (error) => logger.debug(`websocket: ${error.message}`),
          ...(tokens.length === 0
            ? {}
            : {
                authenticate: (_req, presented) => {
                  const principal = principalForToken(tokens, presented);
                  if (principal === undefined) throw new Error('invalid token');
                  return principal;
                },
              }),
        })
      : undefined;
  const origin = await listenOn(server, options.host, options.port);
  let closing: Promise<void> | undefined;
  return {
    url: `${transport === 'ws' ? origin.replace(/^http/, 'ws') : origin}${ENDPOINT_PATH}`,
    consoleUrl: `${origin}${CONSOLE_PATH}/`,
    ended: NEVER,
    close: () => {
      closing ??= (async () => {
        await ws?.close();
        await new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}

/** Listens and resolves with the server's origin (`http://host:port`). */
function listenOn(server: Server, host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      resolve(`http://${host.includes(':') ? `[${host}]` : host}:${address.port}`);
    });
  });
}
