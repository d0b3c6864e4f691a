/**
 * `makePair` implementations for the transport contract: each serves the contract handler on a real channel
 * (HTTP and WebSocket on 127.0.0.1:0 in-process, stdio in a child process running test/fixtures) and connects the
 * transport's own client to it.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { LATEST_PROTOCOL_VERSION, META } from '@mcp-tasks/protocol';
import { HttpClientTransport } from '@mcp-tasks/transport-http/client';
import { listen } from '@mcp-tasks/transport-http/server';
import { StdioClientTransport } from '@mcp-tasks/transport-stdio';
import { connectWebSocket, type WebSocketConstructor, WebSocketServerTransport } from '@mcp-tasks/transport-ws';
import { createContractHandler } from '../../src/index.js';
import type { ContractPair, RawChannel } from './describeTransportContract.js';

/** The stdio fixture: serves the (built) contract handler with `serveStdio`. */
export const STDIO_FIXTURE = fileURLToPath(new URL('../fixtures/contractStdioServer.mjs', import.meta.url));

/** Parsed messages in arrival order; `next()` waits for one. */
class MessageQueue {
  readonly #items: unknown[] = [];
  readonly #waiters: Array<(message: unknown) => void> = [];

  push(message: unknown): void {
    const waiter = this.#waiters.shift();
    if (waiter === undefined) this.#items.push(message);
    else waiter(message);
  }

  next(): Promise<unknown> {
    if (this.#items.length > 0) return Promise.resolve(this.#items.shift());
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}

function once<T>(teardown: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= teardown();
    return running;
  };
}

export async function makeHttpPair(): Promise<ContractPair> {
  const { handler, state } = createContractHandler();
  const server = await listen(handler, { port: 0, host: '127.0.0.1' });
  const client = new HttpClientTransport({ url: server.url });
  return {
    client,
    state,
    openRaw: async () => rawHttp(server.url),
    teardown: once(async () => {
      await client.close();
      await server.close();
    }),
  };
}

/** Each frame is its own POST; a well-formed request gets the routing headers the server requires of it. */
function rawHttp(url: URL): RawChannel {
  const queue = new MessageQueue();
  return {
    async send(text) {
      const headers: Record<string, string> = {
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
      };
      try {
        const message = JSON.parse(text) as { method?: unknown; params?: { _meta?: Record<string, unknown> } };
        if (typeof message.method === 'string') headers['mcp-method'] = message.method;
        const version = message.params?._meta?.[META.protocolVersion];
        headers['mcp-protocol-version'] = typeof version === 'string' ? version : LATEST_PROTOCOL_VERSION;
      } catch {
        // Not JSON: sent as is, which is the point.
      }
      const res = await fetch(url, { method: 'POST', headers, body: text });
      const body = await res.text();
      if (body !== '') queue.push(JSON.parse(body));
    },
    next: () => queue.next(),
    close: async () => {},
  };
}

export async function makeWebSocketPair(): Promise<ContractPair> {
  const { handler, state } = createContractHandler();
  const server = await WebSocketServerTransport.listen(handler, { heartbeatMs: 0 });
  const client = await connectWebSocket(server.url, { reconnect: false });
  return {
    client,
    state,
    openRaw: () => rawWebSocket(server.url),
    teardown: once(async () => {
      await client.close();
      await server.close();
    }),
  };
}

/**
 * The `ws` package, resolved from transport-ws (testkit does not depend on it directly, and Node 20 has no global
 * WebSocket). The transport's own client never sends malformed frames, so the raw channel needs a bare socket.
 */
function nodeWebSocket(): WebSocketConstructor {
  const require = createRequire(import.meta.url);
  return createRequire(require.resolve('@mcp-tasks/transport-ws'))('ws') as WebSocketConstructor;
}

async function rawWebSocket(url: string): Promise<RawChannel> {
  const Ws = nodeWebSocket();
  const socket = new Ws(url, ['mcp']);
  const queue = new MessageQueue();
  const closed = new Promise<void>((resolve) => {
    socket.onclose = () => resolve();
  });
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve();
    socket.onerror = () => reject(new Error(`Could not open ${url}`));
  });
  socket.onmessage = (event: { data: unknown }) => queue.push(JSON.parse(String(event.data)));
  return {
    send: async (text) => socket.send(text),
    next: () => queue.next(),
    close: async () => {
      socket.close(1000);
      await closed;
    },
  };
}

export async function makeStdioPair(): Promise<ContractPair> {
  const client = await StdioClientTransport.spawn({
    command: process.execPath,
    args: [STDIO_FIXTURE],
    stderr: 'pipe',
  });
  // Drain stderr so a chatty child can never block on a full pipe.
  client.stderr?.resume();
  return {
    client,
    openRaw: async () => rawStdio(),
    teardown: once(async () => {
      // close() ends stdin and resolves once the child exited (SIGTERM/SIGKILL after the grace period).
      await client.close();
      await client.exited;
    }),
  };
}

/** A second server process, spoken to line by line. */
function rawStdio(): RawChannel {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [STDIO_FIXTURE], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr.resume();
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const queue = new MessageQueue();
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf('\n');
    while (newline !== -1) {
      queue.push(JSON.parse(buffered.slice(0, newline)));
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
    }
  });
  return {
    send: (text) =>
      new Promise<void>((resolve, reject) =>
        child.stdin.write(`${text}\n`, (error) => (error ? reject(error) : resolve())),
      ),
    next: () => queue.next(),
    close: async () => {
      // serveStdio exits on stdin EOF.
      child.stdin.end();
      await exited;
    },
  };
}
