/**
 * What the README's "Serving the console from another origin" section shows, as code the tests run: a Streamable
 * HTTP endpoint that lets one other origin's console in. CORS tells the browser it may send and read; the
 * handler's own `allowedOrigins` decides whether the request is served (DNS-rebinding protection stays on).
 */
import { createServer, type Server } from 'node:http';
import type { MessageHandler } from '@mcp-tasks/protocol';
import { createHttpHandler } from '@mcp-tasks/transport-http/server';

/** An MCP endpoint at `/mcp` that answers CORS for `consoleOrigin`; `allow` false leaves it off `allowedOrigins`. */
export function corsMcpServer(handler: MessageHandler, consoleOrigin: string, allow = true): Server {
  const mcp = createHttpHandler(handler, allow ? { allowedOrigins: [consoleOrigin] } : {});
  return createServer((req, res) => {
    if (req.headers.origin === consoleOrigin) {
      res.setHeader('access-control-allow-origin', consoleOrigin);
      res.setHeader('vary', 'Origin');
    }
    if (req.method === 'OPTIONS') {
      // The preflight of a POST with JSON and the MCP headers (Mcp-Method, Mcp-Name, MCP-Protocol-Version,
      // Mcp-Param-*, Authorization). Those names vary per tool, so the requested ones are echoed back.
      res.writeHead(204, {
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    if ((req.url ?? '').split('?')[0] === '/mcp') return mcp(req, res);
    res.writeHead(404).end();
  });
}
