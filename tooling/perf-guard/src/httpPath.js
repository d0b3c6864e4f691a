// The HTTP front's path: `tasks/get` over loopback TCP through node:http and `createHttpHandler`, server and client
// in the measured process. The client is a bare socket writing one prepared request and reading the response's
// bytes, so nearly all the per-operation cost is the server's: node's parser, our binding (Host/Origin, routing
// headers, body limits, the exchange), the runtime and the response write.
import { createServer } from 'node:http';
import { connect } from 'node:net';
import { httpHeaders, tasksGet as tasksGetMessage } from '@mcp-tasks/bench/src/lib/messages.js';
import { createWorkingTask } from '@mcp-tasks/bench/src/servers/oursRuntime.js';
import { rawEchoHandler } from '@mcp-tasks/bench/src/servers/rawEchoHandler.js';
import { createHttpHandler } from '@mcp-tasks/transport-http';

/** The raw bytes of one HTTP/1.1 POST of `message`, with the 2026-07-28 routing headers a client sends. */
function requestBytes(port, message) {
  const body = JSON.stringify(message);
  const headers = { ...httpHeaders(message), host: `127.0.0.1:${port}`, 'content-length': Buffer.byteLength(body) };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return Buffer.from(`POST /mcp HTTP/1.1\r\n${head.join('')}\r\n${body}`);
}

/**
 * A keep-alive connection that sends one request at a time and resolves with the whole response (head and
 * `Content-Length` bytes of body) as latin1 text.
 */
async function rawClient(port) {
  const socket = connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.setEncoding('latin1');
  let text = '';
  let expected = Number.POSITIVE_INFINITY;
  let settle;
  socket.on('data', (chunk) => {
    text += chunk;
    const headEnd = text.indexOf('\r\n\r\n');
    if (expected === Number.POSITIVE_INFINITY && headEnd !== -1) {
      const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, headEnd));
      if (length === null) throw new Error(`response without Content-Length: ${text}`);
      expected = headEnd + 4 + Number(length[1]);
    }
    if (text.length >= expected) {
      const response = text;
      text = '';
      expected = Number.POSITIVE_INFINITY;
      settle(response);
    }
  });
  return {
    send: (bytes) =>
      new Promise((resolve) => {
        settle = resolve;
        socket.write(bytes);
      }),
    close: () => socket.destroy(),
  };
}

/** Serves `handler` on 127.0.0.1, connects the raw client, and checks the first answer of `bytes(port)`. */
async function loopback(handler, bytesFor, expect) {
  const server = createServer(handler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  const client = await rawClient(port);
  const bytes = bytesFor(port);
  const first = await client.send(bytes);
  if (!first.startsWith('HTTP/1.1 200') || !first.includes(expect)) throw new Error(`HTTP tasks/get failed: ${first}`);
  return {
    op: async () => {
      const response = await client.send(bytes);
      if (!response.startsWith('HTTP/1.1 200')) throw new Error(`HTTP tasks/get failed: ${response}`);
    },
    close: async () => {
      client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * `tasks/get` of a working task over loopback HTTP: node:http + `createHttpHandler` + `McpServer`, one keep-alive
 * connection, one request at a time. `createRuntime` builds the runtime (the guard's, over its deterministic store).
 */
export async function httpTasksGet(createRuntime) {
  const runtime = createRuntime();
  const taskId = await createWorkingTask(runtime);
  const exchange = await loopback(
    createHttpHandler(runtime),
    (port) => requestBytes(port, tasksGetMessage(taskId)),
    '"working"',
  );
  return {
    op: exchange.op,
    close: async () => {
      await exchange.close();
      await runtime.close({ graceMs: 0 });
    },
  };
}

/**
 * The reference of {@link httpTasksGet}: the same exchange with a raw node:http JSON echo (read the body, parse it,
 * answer our runtime's exact `tasks/get` result with the request's id), so node's own share can be subtracted.
 */
export async function httpEcho(createRuntime) {
  const runtime = createRuntime();
  const taskId = await createWorkingTask(runtime);
  const message = tasksGetMessage(taskId);
  const { result } = await runtime.handle(message, { notify() {}, signal: new AbortController().signal });
  await runtime.close({ graceMs: 0 });
  return loopback(rawEchoHandler(result), (port) => requestBytes(port, message), '"working"');
}
