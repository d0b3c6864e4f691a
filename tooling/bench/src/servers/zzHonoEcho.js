import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { echoTemplate, port, ready } from './serverKit.js';
const result = echoTemplate();
const headersToo = process.env.HEADERS === '1';
const server = createServer(getRequestListener(async (request) => {
  if (headersToo) { request.headers.get('host'); request.headers.get('mcp-method'); }
  const message = JSON.parse(new TextDecoder().decode(await request.arrayBuffer()));
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }), { status: 200, headers: { 'content-type': 'application/json' } });
}));
server.keepAliveTimeout = 60_000;
server.listen(port(), '127.0.0.1', () => ready({ url: `http://127.0.0.1:${server.address().port}/mcp` }));
