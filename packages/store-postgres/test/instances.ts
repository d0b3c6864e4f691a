import { META, type RequestContext, TASKS_EXTENSION_ID, type TransportNotification } from '@mcp-tasks/protocol';
import { McpServer } from '@mcp-tasks/server';
import { onTestFinished } from 'vitest';
import { PostgresTaskStore } from '../src/index.js';

const CAPS = { elicitation: {}, extensions: { [TASKS_EXTENSION_ID]: {} } };
let nextId = 1;

type Result = Record<string, unknown>;

/** One server instance on the shared database, spoken to by raw JSON-RPC through `handle`. */
export interface Instance {
  readonly server: McpServer;
  readonly store: PostgresTaskStore;
  /** Sends a request; resolves with its result or rejects with its error. */
  call(method: string, params?: Result): Promise<Result>;
  /** Opens a `subscriptions/listen` stream; `seen` collects its notifications, `close` ends it. */
  listen(notifications: Result): { seen: TransportNotification[]; close(): void; done: Promise<unknown> };
}

function message(method: string, params: Result) {
  const _meta = {
    [META.protocolVersion]: '2026-07-28',
    [META.clientInfo]: { name: 'cross-instance-test', version: '1.0.0' },
    [META.clientCapabilities]: CAPS,
  };
  return { jsonrpc: '2.0' as const, id: nextId++, method, params: { ...params, _meta } };
}

function context(notifications: TransportNotification[] = []) {
  const controller = new AbortController();
  const ctx: RequestContext = { notify: (n) => notifications.push(n), signal: controller.signal };
  return { ctx, abort: () => controller.abort() };
}

/** Starts a server named `workerId` on a store of `table` in the database at `url`; closed after the test. */
export function instance(url: string, table: string, workerId: string, leaseMs = 30_000): Instance {
  const store = new PostgresTaskStore({ connectionString: url, table, onError: () => undefined });
  const server = new McpServer({
    serverInfo: { name: workerId, version: '1.0.0' },
    taskStore: store,
    closeTaskStore: true,
    tasks: { workerId, leaseMs },
    // A worker whose store was closed under it reports every failed renewal; the tests assert outcomes instead.
    onError: () => undefined,
  });
  onTestFinished(() => server.close({ graceMs: 50 }));
  return {
    server,
    store,
    async call(method, params = {}) {
      const response = await server.handle(message(method, params), context().ctx);
      if (response === undefined) throw new Error('no response');
      if ('error' in response) throw Object.assign(new Error(response.error.message), response.error);
      return response.result as Result;
    },
    listen(notifications) {
      const seen: TransportNotification[] = [];
      const { ctx, abort } = context(seen);
      const done = Promise.resolve(server.handle(message('subscriptions/listen', { notifications }), ctx));
      return { seen, close: abort, done };
    },
  };
}
