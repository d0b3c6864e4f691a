/**
 * Shared set-up for the integration tests: one real `McpServer`, any number of real `McpClient`s linked to it in
 * memory (one `linkedPair` each, with its own principal), and a log of every message the server saw.
 */
import { McpClient, type McpClientOptions, type TaskSupportOptions } from '@mcp-tasks/client';
import type { MessageHandler, TransportNotification } from '@mcp-tasks/protocol';
import { McpServer, type McpServerOptions, type ToolResult } from '@mcp-tasks/server';
import { type LinkedPair, linkedPair } from '@mcp-tasks/transport-kit/testing';
import { expect, onTestFinished } from 'vitest';

/** One message the server handled, as it arrived, with what it sent back. */
export interface LoggedExchange {
  readonly principal: string | undefined;
  readonly message: { readonly id?: unknown; readonly method?: string; readonly params?: Record<string, unknown> };
  readonly notifications: TransportNotification[];
  response?: unknown;
}

/** A client connected to the harness server. */
export interface Connection {
  readonly client: McpClient;
  readonly pair: LinkedPair;
}

export interface ConnectOptions extends Partial<Omit<McpClientOptions, 'transport' | 'tasks'>> {
  readonly principal?: string;
  /** `false` to not declare the extension; otherwise merged over the fast test polling defaults. */
  readonly tasks?: false | TaskSupportOptions;
}

export interface Harness {
  readonly server: McpServer;
  /** Every exchange the server handled, in arrival order. */
  readonly log: LoggedExchange[];
  /** Unexpected exceptions the server reported through `onError`. */
  readonly serverErrors: unknown[];
  connect(options?: ConnectOptions): Connection;
  /** The logged exchanges with this method. */
  sent(method: string): LoggedExchange[];
}

/** Fast polling for tests: the server asks for 10 ms, the client allows down to 1 ms. */
export const FAST_POLL_MS = 10;

/**
 * Creates a server (tasks polled every {@link FAST_POLL_MS} unless overridden) and registers teardown: clients are
 * closed, then the server (which aborts and awaits every running tool).
 */
export function createHarness(serverOptions: Partial<McpServerOptions> = {}): Harness {
  const serverErrors: unknown[] = [];
  const server = new McpServer({
    serverInfo: { name: 'testkit-server', version: '0.0.0' },
    onError: (error) => serverErrors.push(error),
    ...serverOptions,
    tasks: { pollIntervalMs: FAST_POLL_MS, ...serverOptions.tasks },
  });
  const log: LoggedExchange[] = [];
  const connections: Connection[] = [];
  const recording: MessageHandler = async (message, context) => {
    const entry: LoggedExchange = {
      principal: context.principal,
      message: message as LoggedExchange['message'],
      notifications: [],
    };
    log.push(entry);
    const response = await server.handle(message, {
      ...context,
      // An accessor of the transport's context class, which a spread does not copy.
      signal: context.signal,
      notify: (notification) => {
        entry.notifications.push(notification);
        context.notify(notification);
      },
    });
    entry.response = response;
    return response;
  };
  onTestFinished(async () => {
    for (const connection of connections) await connection.client.close();
    await server.close();
    for (const connection of connections) await connection.pair.idle();
    // Every test doubles as a check that nothing reached the server's unexpected-exception path.
    expect(serverErrors).toEqual([]);
  });
  return {
    server,
    log,
    serverErrors,
    connect(options = {}) {
      const { principal, tasks, ...clientOptions } = options;
      const pair = linkedPair(recording, { principal });
      const client = new McpClient({
        clientInfo: { name: 'testkit-client', version: '0.0.0' },
        ...clientOptions,
        transport: pair,
        tasks: tasks === false ? false : { minIntervalMs: 1, defaultIntervalMs: FAST_POLL_MS, ...tasks },
      });
      const connection = { client, pair };
      connections.push(connection);
      return connection;
    },
    sent: (method) => log.filter((entry) => entry.message.method === method),
  };
}

/** A promise with its resolve function exposed. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Waits for `promise`, rejecting with the abort reason as soon as `signal` aborts (how a good tool waits). */
export function until<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Text content of a tool result, for short assertions. */
export function text(value: string): ToolResult {
  return { content: [{ type: 'text', text: value }] };
}

/** A registered tool that runs until its signal aborts: `started` settles once it runs; `signal` is its ctx.signal. */
export interface UntilCancelledTool {
  readonly started: Promise<void>;
  readonly signal: () => AbortSignal | undefined;
}

/** Registers a tool that does nothing until it is cancelled (by tasks/cancel, the caller, or server shutdown). */
export function registerUntilCancelled(
  h: Harness,
  name: string,
  taskSupport: 'optional' | 'required',
): UntilCancelledTool {
  const started = deferred();
  let toolSignal: AbortSignal | undefined;
  h.server.tool({
    name,
    description: 'Runs until cancelled',
    taskSupport,
    handler: async (_args, ctx) => {
      toolSignal = ctx.signal;
      started.resolve();
      await until(new Promise<never>(() => undefined), ctx.signal);
      return text('never');
    },
  });
  return { started: started.promise, signal: () => toolSignal };
}

/**
 * Registers a task tool that finishes when the returned `release` is resolved, and records each run's signal.
 * `result` builds its text from the arguments (default `done <args as JSON>`).
 */
export function registerGated(
  h: Harness,
  name = 'gated',
  result: (args: unknown) => string = (args) => `done ${JSON.stringify(args)}`,
): { readonly release: Deferred<void>; readonly signals: AbortSignal[] } {
  const release = deferred();
  const signals: AbortSignal[] = [];
  h.server.tool({
    name,
    description: 'Finishes when the test says so',
    taskSupport: 'required',
    handler: async (args, ctx) => {
      signals.push(ctx.signal);
      await until(release.promise, ctx.signal);
      return text(result(args));
    },
  });
  return { release, signals };
}
