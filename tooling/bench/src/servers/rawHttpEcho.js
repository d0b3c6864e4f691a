// Baseline: the least a node:http JSON-RPC endpoint can do. Reads the body, parses it, answers a result of the
// same size as ours (BENCH_ECHO_RESULT) with the request's id.
import { createServer } from 'node:http';
import { rawEchoHandler } from './rawEchoHandler.js';
import { echoTemplate, port, ready } from './serverKit.js';

const server = createServer(rawEchoHandler(echoTemplate()));
server.keepAliveTimeout = 60_000;
server.listen(port(), '127.0.0.1', () => ready({ url: `http://127.0.0.1:${server.address().port}/mcp` }));
