// Baseline: the least a fetch-API handler served by @hono/node-server can do (the adapter's own floor): read the
// body, parse it, answer a JSON `Response` of the same size as ours (BENCH_ECHO_RESULT) with the request's id.
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { echoTemplate, port, ready } from './serverKit.js';

const result = echoTemplate();
const decoder = new TextDecoder();
const headers = { 'content-type': 'application/json' };
const server = createServer(
  getRequestListener(async (request) => {
    const message = JSON.parse(decoder.decode(await request.arrayBuffer()));
    return new Response(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }), { status: 200, headers });
  }),
);
server.keepAliveTimeout = 60_000;
server.listen(port(), '127.0.0.1', () => ready({ url: `http://127.0.0.1:${server.address().port}/mcp` }));
