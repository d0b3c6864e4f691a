// Ours through the fetch-API core: createFetchHandler served on node:http by @hono/node-server's request listener
// (the common way to serve a fetch handler on Node), with one task that stays `working`.
import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { createFetchHandler } from '@mcp-tasks/transport-http/fetch';
import { createRuntime, createWorkingTask } from './oursRuntime.js';
import { port, ready } from './serverKit.js';

const runtime = createRuntime();
const taskId = await createWorkingTask(runtime);
// The fetch API does not tell the local address; list the loopback host so the Host check passes.
const handler = createFetchHandler(runtime, { allowedHosts: ['127.0.0.1'] });
const server = createServer(getRequestListener(handler));
server.keepAliveTimeout = 60_000;
server.listen(port(), '127.0.0.1', () => ready({ url: `http://127.0.0.1:${server.address().port}/mcp`, taskId }));
