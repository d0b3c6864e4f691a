import type { MessageHandler, ServerEndpoint, TransportNotification, TransportRequest } from '@mcp-tasks/protocol';
import { collectParamHeaders, TransportError } from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FetchLike, HttpClientTransport } from '../src/client.js';
import { type HttpServerHandle, type ListenOptions, listen } from '../src/server.js';
import { describeOverEachFetch, fetchInUse } from './eachFetch.js';
import { fakeRuntime, rpc } from './fakes.js';

let servers: HttpServerHandle[] = [];
let clients: HttpClientTransport[] = [];
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  clients = [];
});

/** A fetch that records the headers of every POST it sends, lower-cased. */
function recordingFetch(sent: Record<string, string>[]): FetchLike {
  return (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    sent.push(headers);
    return fetchInUse()(input, init);
  };
}

async function setup(options: ListenOptions = {}, handler?: MessageHandler) {
  const runtime = fakeRuntime();
  const handle = await listen(handler ?? runtime.handler, options);
  servers.push(handle);
  const sent: Record<string, string>[] = [];
  const client = new HttpClientTransport({ url: handle.url, fetch: recordingFetch(sent) });
  clients.push(client);
  return { ...runtime, url: handle.url, client, sent };
}

function req(id: number, method: string, params: Record<string, unknown> = {}): TransportRequest {
  return rpc(id, method, params);
}

// Every test runs on the global fetch (the default) and on nodeHttpFetch.
describeOverEachFetch(() => {
  describe('HttpClientTransport', () => {
    it('sends the SEP-2243 headers and resolves with a JSON response', async () => {
      const { client, sent } = await setup();
      const response = await client.request(req(1, 'tools/call', { name: 'greet', arguments: {} }));
      expect(response).toMatchObject({ id: 1, result: { resultType: 'complete' } });
      // The transport first lists the tools to learn their x-mcp-header annotations, then calls.
      expect(sent.map((h) => h['mcp-method'])).toEqual(['tools/list', 'tools/call']);
      const headers = sent[1] ?? {};
      expect(headers.accept).toBe('application/json, text/event-stream');
      expect(headers['content-type']).toBe('application/json');
      expect(headers['mcp-method']).toBe('tools/call');
      expect(headers['mcp-name']).toBe('greet');
      expect(headers['mcp-protocol-version']).toBe('2026-07-28');
    });

    it('C18: sends Mcp-Name = taskId on tasks/get, Base64-encoded when not header-safe', async () => {
      const { client, sent } = await setup();
      const response = await client.request(req(1, 'tasks/get', { taskId: ' täsk ' }));
      expect(response).toMatchObject({ id: 1, result: {} });
      expect(sent[0]?.['mcp-name']).toBe(`=?base64?${Buffer.from(' täsk ').toString('base64')}?=`);
    });

    it('routes SSE notifications to onNotification, in order, before resolving', async () => {
      const { client } = await setup();
      const seen: unknown[] = [];
      const response = await client.request(req(2, 'progress'), {
        onNotification: (n: TransportNotification) => seen.push(n.params?.progress),
      });
      expect(seen).toEqual([1, 2, 3]);
      expect(response).toMatchObject({ id: 2, result: { done: true } });
    });

    it('aborting the signal closes a listen stream: the server aborts the request', async () => {
      const { client, recorded } = await setup();
      const controller = new AbortController();
      let pending: Promise<unknown> = Promise.resolve();
      const acked = new Promise<TransportNotification>((resolve) => {
        pending = client.request(req(3, 'listen'), { signal: controller.signal, onNotification: resolve });
      });
      expect((await acked).method).toBe('notifications/subscriptions/acknowledged');
      controller.abort('stop');
      await expect(pending).rejects.toBe('stop');
      await recorded.aborted;
      expect(recorded.contexts[0]?.signal.aborted).toBe(true);
    });

    it('rejects at once when the signal is already aborted', async () => {
      const { client, recorded } = await setup();
      await expect(client.request(req(1, 'tools/list'), { signal: AbortSignal.abort('early') })).rejects.toBe('early');
      expect(recorded.contexts).toHaveLength(0);
    });

    it('shares one caller signal among many requests in flight without a listener-leak warning', async () => {
      const { client } = await setup();
      const warnings: string[] = [];
      const onWarning = (warning: Error) => warnings.push(warning.name);
      process.on('warning', onWarning);
      try {
        const shared = new AbortController();
        const calls = Array.from({ length: 30 }, (_, i) =>
          client.request(req(i + 1, 'tools/call', { name: 'greet', arguments: {} }), { signal: shared.signal }),
        );
        for (const response of await Promise.all(calls))
          expect(response).toHaveProperty('result.resultType', 'complete');
        // Process warnings are emitted on a later tick.
        await new Promise((resolve) => setImmediate(resolve));
        expect(warnings).not.toContain('MaxListenersExceededWarning');
      } finally {
        process.off('warning', onWarning);
      }
    });

    it('resolves with the JSON-RPC error body of a 4xx/5xx response', async () => {
      const { client } = await setup();
      expect(await client.request(req(4, 'fail', { code: -32601 }))).toMatchObject({ id: 4, error: { code: -32601 } });
      expect(await client.request(req(5, 'throw'))).toMatchObject({ id: 5, error: { code: -32603 } });
    });

    it('rejects with TransportError http_status for a non-2xx without a JSON-RPC body', async () => {
      const { url } = await setup();
      const client = new HttpClientTransport({ url: new URL('/elsewhere', url) });
      clients.push(client);
      const error = await client.request(req(1, 'tools/list')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransportError);
      expect(error).toMatchObject({ code: 'http_status', status: 404 });
      await expect(client.notify({ jsonrpc: '2.0', method: 'notifications/x' })).rejects.toMatchObject({
        code: 'http_status',
      });
    });

    it('rejects with send_failed when nothing listens', async () => {
      const handle = await listen(fakeRuntime().handler);
      await handle.close();
      const client = new HttpClientTransport({ url: handle.url });
      clients.push(client);
      await expect(client.request(req(1, 'tools/list'))).rejects.toMatchObject({ code: 'send_failed' });
    });

    it('resolves notify() on 202', async () => {
      const { client, recorded } = await setup();
      await client.notify({ jsonrpc: '2.0', method: 'notifications/x', params: {} });
      expect(recorded.contexts).toHaveLength(1);
    });

    it('close() fails in-flight requests with TransportError closed, is idempotent, and refuses new requests', async () => {
      const { client, recorded } = await setup();
      let acked: () => void = () => {};
      const ack = new Promise<void>((resolve) => {
        acked = resolve;
      });
      const pending = client.request(req(1, 'listen'), { onNotification: () => acked() });
      await ack;
      await client.close();
      await client.close();
      await expect(pending).rejects.toMatchObject({ name: 'TransportError', code: 'closed' });
      await recorded.aborted;
      await expect(client.request(req(2, 'tools/list'))).rejects.toMatchObject({ code: 'closed' });
    });

    it('sends the bearer token and custom headers, through a custom fetch', async () => {
      const { url, recorded } = await setup({
        authenticate: (r) => (r.headers.authorization === 'Bearer tok-1' ? 'bob' : null),
      });
      const calls: string[] = [];
      const sent: Record<string, string>[] = [];
      const recording = recordingFetch(sent);
      const client = new HttpClientTransport({
        url,
        token: async () => 'tok-1',
        headers: () => ({ 'X-Tenant': 'acme', 'Mcp-Method': 'cannot/override' }),
        fetch: (input, init) => {
          calls.push(String(input));
          return recording(input, init);
        },
      });
      clients.push(client);
      expect(await client.request(req(1, 'tools/list'))).toMatchObject({ result: {} });
      expect(calls).toEqual([url.href]);
      expect(recorded.contexts[0]?.principal).toBe('bob');
      expect(sent[0]?.['x-tenant']).toBe('acme');
      expect(sent[0]?.['mcp-method']).toBe('tools/list');
    });

    it('rejects a 401 or 403 with http_status and its status, with or without a JSON-RPC error body', async () => {
      const { client } = await setup({ authenticate: () => null });
      const refused = await client.request(req(1, 'tools/list')).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(TransportError);
      expect(refused).toMatchObject({ code: 'http_status', status: 401, message: 'HTTP 401: Unauthorized' });
      expect((refused as TransportError).cause).toMatchObject({ code: -32600, message: 'Unauthorized' });
      const forbidden = new HttpClientTransport({
        url: 'http://127.0.0.1:1/mcp',
        fetch: async () =>
          Response.json({ jsonrpc: '2.0', error: { code: -32600, message: 'Forbidden: Origin' } }, { status: 403 }),
      });
      clients.push(forbidden);
      await expect(forbidden.request(req(1, 'tools/list'))).rejects.toMatchObject({ code: 'http_status', status: 403 });
      const bare = new HttpClientTransport({
        url: 'http://127.0.0.1:1/mcp',
        fetch: async () => new Response('nope', { status: 401 }),
      });
      clients.push(bare);
      await expect(bare.request(req(1, 'tools/list'))).rejects.toMatchObject({ code: 'http_status', status: 401 });
    });

    it('resolves with the JSON-RPC error body of other non-2xx statuses (the error of the request)', async () => {
      const client = new HttpClientTransport({
        url: 'http://127.0.0.1:1/mcp',
        fetch: async () =>
          Response.json({ jsonrpc: '2.0', id: 1, error: { code: -32029, message: 'Too many tasks' } }, { status: 429 }),
      });
      clients.push(client);
      expect(await client.request(req(1, 'tools/list'))).toMatchObject({ error: { code: -32029 } });
    });

    it('rejects a 200 that is not a JSON-RPC response with malformed_frame', async () => {
      const client = new HttpClientTransport({
        url: 'http://127.0.0.1:1/mcp',
        fetch: async () => new Response('<html>', { status: 200, headers: { 'content-type': 'text/html' } }),
      });
      clients.push(client);
      await expect(client.request(req(1, 'tools/list'))).rejects.toMatchObject({ code: 'malformed_frame' });
    });

    it('rejects when an SSE stream ends before the response', async () => {
      const client = new HttpClientTransport({
        url: 'http://127.0.0.1:1/mcp',
        fetch: async () =>
          new Response('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n', {
            headers: { 'content-type': 'text/event-stream' },
          }),
      });
      clients.push(client);
      const seen: string[] = [];
      await expect(client.request(req(1, 'x'), { onNotification: (n) => seen.push(n.method) })).rejects.toMatchObject({
        code: 'closed',
      });
      expect(seen).toEqual(['notifications/progress']);
    });
  });

  describe('HttpClientTransport: x-mcp-header (Mcp-Param-*)', () => {
    const executeSql = {
      name: 'execute_sql',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          limit: { type: 'integer', 'x-mcp-header': 'Limit' },
          opts: { type: 'object', properties: { dry: { type: 'boolean', 'x-mcp-header': 'Dry' } } },
        },
      },
    };
    const badTool = {
      name: 'bad_tool',
      inputSchema: { type: 'object', properties: { x: { type: 'number', 'x-mcp-header': 'X' } } },
    };
    const plain = { name: 'plain', inputSchema: { type: 'object' } };

    /**
     * A server whose tools can change, served as a ServerEndpoint: the HTTP adapter checks Mcp-Param-* against the
     * current annotations. `pages` splits tools/list into pages of that many tools.
     */
    function toolServer(initial: unknown[], pageSize = 100) {
      let tools = initial;
      const handle: MessageHandler = async (raw, context) => {
        const message = raw as TransportRequest;
        if (message.method === 'tools/list') {
          const start = Number(message.params?.cursor ?? 0);
          const page = tools.slice(start, start + pageSize);
          const next = start + pageSize < tools.length ? { nextCursor: String(start + pageSize) } : {};
          return { jsonrpc: '2.0', id: message.id, result: { tools: page, ...next } };
        }
        if (message.method === 'changed') {
          context.notify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
        }
        return { jsonrpc: '2.0', id: message.id, result: { resultType: 'complete' } };
      };
      const endpoint: ServerEndpoint = {
        handle,
        toolParamHeaders: (name) => {
          const tool = tools.find((t) => (t as { name: string }).name === name) as { inputSchema: unknown } | undefined;
          const found = tool === undefined ? [] : collectParamHeaders(tool.inputSchema);
          return typeof found === 'string' ? [] : found;
        },
      };
      return { endpoint, setTools: (next: unknown[]) => (tools = next) };
    }

    async function connect(endpoint: ServerEndpoint, warn: (m: string) => void = () => {}) {
      const handle = await listen(endpoint);
      servers.push(handle);
      const sent: Record<string, string>[] = [];
      const client = new HttpClientTransport({ url: handle.url, fetch: recordingFetch(sent), warn });
      clients.push(client);
      return { client, sent };
    }

    const call = (id: number, args: Record<string, unknown>, name = 'execute_sql') =>
      req(id, 'tools/call', { name, arguments: args });
    const params = (headers: Record<string, string> | undefined) =>
      Object.fromEntries(Object.entries(headers ?? {}).filter(([h]) => h.startsWith('mcp-param-')));

    it('drops tools with invalid annotations (with a warning) and mirrors annotated arguments', async () => {
      const warn = vi.fn();
      const { client, sent } = await connect(toolServer([executeSql, badTool, plain]).endpoint, warn);
      const listed = await client.request(req(1, 'tools/list'));
      expect('result' in listed && (listed.result.tools as { name: string }[]).map((t) => t.name)).toEqual([
        'execute_sql',
        'plain',
      ]);
      expect(warn).toHaveBeenCalledOnce();
      expect(warn.mock.calls[0]?.[0]).toContain('bad_tool');

      const called = await client.request(call(2, { region: 'Hello, 世界', limit: 42, opts: { dry: false } }));
      expect(called).toMatchObject({ result: { resultType: 'complete' } });
      expect(params(sent[1])).toEqual({
        'mcp-param-region': '=?base64?SGVsbG8sIOS4lueVjA==?=',
        'mcp-param-limit': '42',
        'mcp-param-dry': 'false',
      });

      expect(await client.request(call(3, { region: null }))).toMatchObject({ result: {} });
      expect(params(sent[2])).toEqual({});
      expect(sent).toHaveLength(3);
    });

    it('gets the first call of an annotated tool right with no tools/list before it (it lists, all pages, once)', async () => {
      const { client, sent } = await connect(toolServer([plain, badTool, executeSql], 1).endpoint);
      const [first, second] = await Promise.all([
        client.request(call(1, { region: 'eu' })),
        client.request(call(2, { limit: 7 })),
      ]);
      expect(first).toMatchObject({ id: 1, result: { resultType: 'complete' } });
      expect(second).toMatchObject({ id: 2, result: { resultType: 'complete' } });
      const methods = sent.map((h) => h['mcp-method']);
      expect(methods).toEqual(['tools/list', 'tools/list', 'tools/list', 'tools/call', 'tools/call']);
      expect(sent.slice(3).map(params)).toEqual([{ 'mcp-param-region': 'eu' }, { 'mcp-param-limit': '7' }]);
      // The listing went out with the call's envelope.
      expect(sent[0]?.['mcp-protocol-version']).toBe('2026-07-28');

      // Known now, and a complete listing was seen: no more listings, not even for an unknown tool.
      await client.request(call(3, {}, 'nope'));
      expect(sent.map((h) => h['mcp-method']).slice(5)).toEqual(['tools/call']);
    });

    it('lists once only when the server answers tools/list with an error', async () => {
      const { endpoint } = toolServer([]);
      const noListing: ServerEndpoint = {
        ...endpoint,
        handle: async (raw, context) => {
          const message = raw as TransportRequest;
          if (message.method !== 'tools/list') return endpoint.handle(raw, context);
          return { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } };
        },
      };
      const { client, sent } = await connect(noListing);
      await client.request(call(1, {}, 'anything'));
      await client.request(call(2, {}, 'other'));
      expect(sent.map((h) => h['mcp-method'])).toEqual(['tools/list', 'tools/call', 'tools/call']);
    });

    it('on -32020 from a tool whose annotations changed, lists again and retries once with the new headers', async () => {
      const { endpoint, setTools } = toolServer([plain, { ...executeSql, inputSchema: { type: 'object' } }]);
      const { client, sent } = await connect(endpoint);
      await client.request(req(1, 'tools/list'));
      setTools([plain, executeSql]);
      const response = await client.request(call(2, { region: 'us-west1' }));
      expect(response).toMatchObject({ id: 2, result: { resultType: 'complete' } });
      expect(sent.map((h) => h['mcp-method'])).toEqual(['tools/list', 'tools/call', 'tools/list', 'tools/call']);
      expect(params(sent[1])).toEqual({});
      expect(params(sent[3])).toEqual({ 'mcp-param-region': 'us-west1' });
    });

    it('does not retry a -32020 that fresh annotations would not change', async () => {
      const { endpoint } = toolServer([executeSql]);
      const rejecting: ServerEndpoint = {
        ...endpoint,
        handle: async (raw, context) => {
          const message = raw as TransportRequest;
          if (message.method !== 'tools/call') return endpoint.handle(raw, context);
          return { jsonrpc: '2.0', id: message.id, error: { code: -32020, message: 'Header mismatch' } };
        },
      };
      const { client, sent } = await connect(rejecting);
      await client.request(req(1, 'tools/list'));
      expect(await client.request(call(2, { region: 'eu' }))).toMatchObject({ id: 2, error: { code: -32020 } });
      expect(sent.map((h) => h['mcp-method'])).toEqual(['tools/list', 'tools/call', 'tools/list']);
    });

    it('forgets the annotations when a stream carries notifications/tools/list_changed', async () => {
      const { endpoint, setTools } = toolServer([plain]);
      const { client, sent } = await connect(endpoint);
      await client.request(req(1, 'tools/list'));
      setTools([plain, executeSql]);
      await client.request(req(2, 'changed'), { onNotification: () => {} });
      await client.request(call(3, { region: 'ap' }));
      expect(sent.map((h) => h['mcp-method'])).toEqual(['tools/list', 'changed', 'tools/list', 'tools/call']);
      expect(params(sent[3])).toEqual({ 'mcp-param-region': 'ap' });
    });
  });
});
