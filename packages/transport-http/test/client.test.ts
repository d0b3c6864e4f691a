import type { MessageHandler, TransportNotification, TransportRequest } from '@mcp-tasks/protocol';
import { TransportError } from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpClientTransport } from '../src/client.js';
import { type HttpServerHandle, type ListenOptions, listen } from '../src/server.js';
import { fakeRuntime, rpc } from './fakes.js';

let servers: HttpServerHandle[] = [];
let clients: HttpClientTransport[] = [];
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  clients = [];
});

async function setup(options: ListenOptions = {}, handler?: MessageHandler) {
  const runtime = fakeRuntime();
  const handle = await listen(handler ?? runtime.handler, options);
  servers.push(handle);
  const client = new HttpClientTransport({ url: handle.url });
  clients.push(client);
  return { ...runtime, url: handle.url, client };
}

function req(id: number, method: string, params: Record<string, unknown> = {}): TransportRequest {
  return rpc(id, method, params);
}

describe('HttpClientTransport', () => {
  it('sends the SEP-2243 headers and resolves with a JSON response', async () => {
    const { client, recorded } = await setup();
    const response = await client.request(req(1, 'tools/call', { name: 'greet', arguments: {} }));
    expect(response).toMatchObject({ id: 1, result: { resultType: 'complete' } });
    const headers = recorded.contexts[0]?.headers ?? {};
    expect(headers.accept).toBe('application/json, text/event-stream');
    expect(headers['content-type']).toBe('application/json');
    expect(headers['mcp-method']).toBe('tools/call');
    expect(headers['mcp-name']).toBe('greet');
    expect(headers['mcp-protocol-version']).toBe('2026-07-28');
  });

  it('C18: sends Mcp-Name = taskId on tasks/get, Base64-encoded when not header-safe', async () => {
    const { client, recorded } = await setup();
    const response = await client.request(req(1, 'tasks/get', { taskId: ' täsk ' }));
    expect(response).toMatchObject({ id: 1, result: {} });
    expect(recorded.contexts[0]?.headers?.['mcp-name']).toBe(`=?base64?${Buffer.from(' täsk ').toString('base64')}?=`);
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
    const client = new HttpClientTransport({
      url,
      token: async () => 'tok-1',
      headers: () => ({ 'X-Tenant': 'acme', 'Mcp-Method': 'cannot/override' }),
      fetch: (input, init) => {
        calls.push(String(input));
        return fetch(input, init);
      },
    });
    clients.push(client);
    expect(await client.request(req(1, 'tools/list'))).toMatchObject({ result: {} });
    expect(calls).toEqual([url.href]);
    expect(recorded.contexts[0]?.principal).toBe('bob');
    expect(recorded.contexts[0]?.headers?.['x-tenant']).toBe('acme');
  });

  it('maps a 401 without JSON-RPC body to http_status and with one to the error response', async () => {
    const { client } = await setup({ authenticate: () => null });
    expect(await client.request(req(1, 'tools/list'))).toMatchObject({ error: { code: -32600 } });
    const bare = new HttpClientTransport({
      url: 'http://127.0.0.1:1/mcp',
      fetch: async () => new Response('nope', { status: 401 }),
    });
    clients.push(bare);
    await expect(bare.request(req(1, 'tools/list'))).rejects.toMatchObject({ code: 'http_status', status: 401 });
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
  const tools = [
    {
      name: 'execute_sql',
      inputSchema: {
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          limit: { type: 'integer', 'x-mcp-header': 'Limit' },
          opts: { type: 'object', properties: { dry: { type: 'boolean', 'x-mcp-header': 'Dry' } } },
        },
      },
    },
    { name: 'bad_tool', inputSchema: { type: 'object', properties: { x: { type: 'number', 'x-mcp-header': 'X' } } } },
    { name: 'plain', inputSchema: { type: 'object' } },
  ];
  const handler: MessageHandler = async (raw, context) => {
    const message = raw as TransportRequest;
    if (message.method === 'tools/list') return { jsonrpc: '2.0', id: message.id, result: { tools } };
    return { jsonrpc: '2.0', id: message.id, result: { headers: { ...context.headers } } };
  };

  it('drops tools with invalid annotations (with a warning) and mirrors annotated arguments', async () => {
    const { url } = await setup({}, handler);
    const warn = vi.fn();
    const client = new HttpClientTransport({ url, warn });
    clients.push(client);
    const listed = await client.request(req(1, 'tools/list'));
    expect('result' in listed && (listed.result.tools as { name: string }[]).map((t) => t.name)).toEqual([
      'execute_sql',
      'plain',
    ]);
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]?.[0]).toContain('bad_tool');

    const called = await client.request(
      req(2, 'tools/call', {
        name: 'execute_sql',
        arguments: { region: 'Hello, 世界', limit: 42, opts: { dry: false } },
      }),
    );
    const headers = ('result' in called ? called.result.headers : {}) as Record<string, string>;
    expect(headers['mcp-param-region']).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
    expect(headers['mcp-param-limit']).toBe('42');
    expect(headers['mcp-param-dry']).toBe('false');

    const omitted = await client.request(req(3, 'tools/call', { name: 'execute_sql', arguments: { region: null } }));
    const none = ('result' in omitted ? omitted.result.headers : {}) as Record<string, string>;
    expect(Object.keys(none).filter((h) => h.startsWith('mcp-param-'))).toEqual([]);
  });
});
