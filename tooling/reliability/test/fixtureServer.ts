/**
 * The server the suite attacks: a real `McpServer` with a plain tool, a cancellable task tool and a task tool that
 * asks for input, served over Streamable HTTP and, on the same port, WebSocket; plus the sample tool server's
 * built entry point for stdio and signal tests.
 */
import { fileURLToPath } from 'node:url';
import { McpClient } from '@mcp-tasks/client';
import { McpServer, type McpServerOptions } from '@mcp-tasks/server';
import { HttpClientTransport } from '@mcp-tasks/transport-http/client';
import { type HttpServerHandle, type ListenOptions, listen } from '@mcp-tasks/transport-http/server';
import { StdioClientTransport } from '@mcp-tasks/transport-stdio';
import { connectWebSocket, type WebSocketServerOptions, WebSocketServerTransport } from '@mcp-tasks/transport-ws';
import { z } from 'zod';

/** The sample tool server's built entry point (built before this package's tests by turbo). */
export const TOOL_SERVER_MAIN = fileURLToPath(new URL('../../../apps/tool-server/dist/main.js', import.meta.url));

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

function abortable(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** Registers `echo` (plain), `slow` (a task that waits `ms`, cancellable) and `confirm` (a task asking for input). */
export function createFixtureServer(options: Partial<McpServerOptions> = {}): { server: McpServer; errors: unknown[] } {
  const errors: unknown[] = [];
  const server = new McpServer({
    serverInfo: { name: 'reliability', version: '0.0.0' },
    onError: (error) => errors.push(error),
    ...options,
    tasks: { pollIntervalMs: 20, ...options.tasks },
  });
  server
    .tool({
      name: 'echo',
      description: 'Answers at once',
      inputSchema: z.object({ value: z.string() }),
      taskSupport: 'forbidden',
      handler: ({ value }) => text(value),
    })
    .tool({
      name: 'slow',
      description: 'A task that waits',
      inputSchema: z.object({ ms: z.number().int().min(0).max(600_000) }),
      taskSupport: 'required',
      handler: async ({ ms }, ctx) => {
        await abortable(ms, ctx.signal);
        return text(`slept ${ms}`);
      },
    })
    .tool({
      name: 'confirm',
      description: 'A task that asks a question',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        const answer = await ctx.elicit({
          message: 'Proceed?',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
        });
        return text(answer.action === 'accept' && answer.content?.ok === true ? 'confirmed' : 'declined');
      },
    });
  return { server, errors };
}

/** A fixture server on HTTP and WebSocket (same port). `close()` stops both, then the runtime. */
export interface ServedFixture {
  readonly server: McpServer;
  readonly errors: unknown[];
  readonly http: HttpServerHandle;
  readonly ws: WebSocketServerTransport;
  readonly httpUrl: URL;
  readonly wsUrl: string;
  close(): Promise<void>;
}

export async function serveFixture(
  options: {
    server?: Partial<McpServerOptions>;
    http?: Omit<ListenOptions, 'host' | 'port'>;
    ws?: WebSocketServerOptions;
  } = {},
): Promise<ServedFixture> {
  const { server, errors } = createFixtureServer(options.server);
  const http = await listen(server, { host: '127.0.0.1', port: 0, ...options.http });
  const ws = WebSocketServerTransport.attach(http.server, server.handle, { heartbeatMs: 0, ...options.ws });
  const wsUrl = `ws://127.0.0.1:${http.url.port}${http.url.pathname}`;
  return {
    server,
    errors,
    http,
    ws,
    httpUrl: http.url,
    wsUrl,
    close: async () => {
      await ws.close();
      await http.close();
      await server.close();
    },
  };
}

export type TransportKind = 'http' | 'ws' | 'stdio';

/** The same three tools by their names on each server: the fixture's, or the sample tool server's (stdio). */
export interface ToolNames {
  readonly plain: (value: string) => [string, Record<string, unknown>];
  readonly slow: (ms: number) => [string, Record<string, unknown>];
  readonly ask: () => [string, Record<string, unknown>];
  /** The accepted content that completes `ask`. */
  readonly answer: Readonly<Record<string, boolean>>;
}

export const FIXTURE_TOOLS: ToolNames = {
  plain: (value) => ['echo', { value }],
  slow: (ms) => ['slow', { ms }],
  ask: () => ['confirm', {}],
  answer: { ok: true },
};

export const APP_TOOLS: ToolNames = {
  plain: (value) => ['greet', { name: value }],
  slow: (ms) => ['slow_compute', { seconds: ms / 1000 }],
  ask: () => ['confirm_delete', { filename: 'soak.txt' }],
  answer: { confirm: true },
};

const CLIENT_INFO = { name: 'reliability-client', version: '0.0.0' };

/** A client over `kind`: HTTP and WebSocket to `fixture`, stdio to a spawned sample tool server. */
export async function connectClient(
  kind: TransportKind,
  fixture: ServedFixture,
  tasks: { listen?: boolean } = {},
): Promise<McpClient> {
  const transport =
    kind === 'http'
      ? new HttpClientTransport({ url: fixture.httpUrl })
      : kind === 'ws'
        ? await connectWebSocket(fixture.wsUrl, { reconnect: false })
        : await StdioClientTransport.spawn({
            command: process.execPath,
            args: [TOOL_SERVER_MAIN, '--transport', 'stdio', '--log-level', 'silent'],
          });
  return new McpClient({
    transport,
    clientInfo: CLIENT_INFO,
    capabilities: { elicitation: {} },
    tasks: { minIntervalMs: 1, defaultIntervalMs: 20, ...tasks },
  });
}
