// Baseline: the official TypeScript SDK v2 server (@modelcontextprotocol/server) serving 2026-07-28 statelessly
// through createMcpHandler (a fresh McpServer per request, as the SDK documents), with the same `greet` tool.
// @modelcontextprotocol/node (toNodeHandler) is not installed, so a minimal node:http adapter is below; it hands
// the SDK the already-parsed body (its documented `parsedBody` fast path), which only favours the baseline.
import { createServer } from 'node:http';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { port, ready } from './serverKit.js';

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'sdk-bench', version: '0.0.0' });
    server.registerTool(
      'greet',
      { description: 'Says hello', inputSchema: z.object({ name: z.string() }) },
      async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
    );
    return server;
  },
  { legacy: 'reject' },
);

let origin = '';
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    const parsedBody = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const request = new Request(origin + req.url, { method: req.method, headers });
    const response = await handler.fetch(request, { parsedBody });
    const body = Buffer.from(await response.arrayBuffer());
    const out = {};
    response.headers.forEach((value, name) => {
      out[name] = value;
    });
    out['content-length'] = body.length;
    res.writeHead(response.status, out);
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port(), '127.0.0.1', () => {
  origin = `http://127.0.0.1:${server.address().port}`;
  ready({ url: `${origin}/mcp` });
});
