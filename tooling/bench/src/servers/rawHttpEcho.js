// Baseline: the least a node:http JSON-RPC endpoint can do. Reads the body, parses it, answers a result of the
// same size as ours (BENCH_ECHO_RESULT) with the request's id.
import { createServer } from 'node:http';
import { echoTemplate, port, ready } from './serverKit.js';

const result = echoTemplate();
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port(), '127.0.0.1', () => ready({ url: `http://127.0.0.1:${server.address().port}/mcp` }));
