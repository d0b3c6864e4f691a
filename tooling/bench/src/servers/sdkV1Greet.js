// Baseline: the official TypeScript SDK v1 server (@modelcontextprotocol/sdk 1.x, 2025-era) with the same `greet`
// tool, on plain node:http, as the SDK's own examples set it up. BENCH_SDK_MODE picks how:
// - `stateless` (default): a fresh McpServer and StreamableHTTPServerTransport (no session ids) per request;
// - `session`: one McpServer and transport per session (`initialize` opens it), looked up by `Mcp-Session-Id`.
// Both answer JSON (`enableJsonResponse`), which costs the SDK less than an SSE stream per request: it only favours
// the baseline. The body is parsed here and handed over (the SDK's `parsedBody` argument).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { port, ready } from './serverKit.js';

function greetServer() {
  const server = new McpServer({ name: 'sdk-v1-bench', version: '0.0.0' });
  server.registerTool('greet', { description: 'Says hello', inputSchema: { name: z.string() } }, async ({ name }) => ({
    content: [{ type: 'text', text: `Hello, ${name}!` }],
  }));
  return server;
}

function readJson(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

async function stateless(req, res, body) {
  const server = greetServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    transport.close();
    server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

const sessions = new Map();

async function session(req, res, body) {
  const id = req.headers['mcp-session-id'];
  const existing = typeof id === 'string' ? sessions.get(id) : undefined;
  if (existing !== undefined) return existing.handleRequest(req, res, body);
  if (id !== undefined) {
    res.writeHead(404).end();
    return;
  }
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    enableJsonResponse: true,
    onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
  });
  transport.onclose = () => sessions.delete(transport.sessionId);
  await greetServer().connect(transport);
  await transport.handleRequest(req, res, body);
}

const serve = process.env.BENCH_SDK_MODE === 'session' ? session : stateless;
const server = createServer(async (req, res) => {
  try {
    await serve(req, res, req.method === 'POST' ? await readJson(req) : undefined);
  } catch (error) {
    if (res.headersSent) res.destroy();
    else res.writeHead(500).end(String(error));
  }
});
server.keepAliveTimeout = 60_000;
server.listen(port(), '127.0.0.1', () => ready({ url: `http://127.0.0.1:${server.address().port}/mcp` }));
