// Drives createFetchHandler with nothing but fetch `Request` and `Response` objects: no sockets, no node:http.
import type { RequestContext, ServerEndpoint } from '@mcp-tasks/protocol';
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { createFetchHandler, type FetchHandlerOptions } from '../src/fetch.js';
import { readSseEvents } from '../src/readSseEvents.js';
import { fakeRuntime, mcpHeaders, meta, rpc } from './fakes.js';

const URL_ = 'http://localhost:8787/mcp';

function post(body: unknown, headers: Record<string, string>, init: RequestInit = {}): Request {
  return new Request(URL_, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

function setup(options: FetchHandlerOptions = {}) {
  const runtime = fakeRuntime();
  // The fake's one annotated tool: `region` is mirrored into Mcp-Param-Region.
  const endpoint: ServerEndpoint = {
    handle: runtime.handler,
    toolParamHeaders: (name) => (name === 'execute_sql' ? [{ path: ['region'], name: 'Region' }] : []),
  };
  return { ...runtime, handler: createFetchHandler(endpoint, options) };
}

async function events(res: Response): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const data of readSseEvents(res.body as ReadableStream<Uint8Array>)) out.push(JSON.parse(data));
  return out;
}

describe('createFetchHandler: exchanges', () => {
  it('answers a tools/call with a JSON Response', async () => {
    const { handler, recorded } = setup();
    const call = rpc(1, 'tools/call', { name: 'greet', arguments: { who: 'x' } });
    const res = await handler(post(call, mcpHeaders('tools/call', { 'mcp-name': 'greet' })));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toMatchObject({ id: 1, result: { echo: { name: 'greet', arguments: { who: 'x' } } } });
    expect(recorded.contexts[0]?.principal).toBeUndefined();
    expect('headers' in (recorded.contexts[0] ?? {})).toBe(false);
  });

  it('carries the traceparent and tracestate headers of a tools/call into _meta, unless _meta names a span', async () => {
    const { handler } = setup();
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const headers = mcpHeaders('tools/call', { 'mcp-name': 'greet', traceparent, tracestate: 'vendor=1' });
    const call = rpc(30, 'tools/call', { name: 'greet', arguments: {} });
    const echoed = await (await handler(post(call, headers))).json();
    expect(echoed.result.echo._meta).toEqual({ ...meta(), traceparent, tracestate: 'vendor=1' });
    const own = rpc(31, 'tools/call', { name: 'greet', arguments: {} });
    own.params._meta.traceparent = 'from-the-message';
    const kept = await (await handler(post(own, headers))).json();
    expect(kept.result.echo._meta).toEqual({ ...meta(), traceparent: 'from-the-message' });
    // Other methods are left alone (and pay no header lookup).
    const get = rpc(32, 'tasks/get', { taskId: 't' });
    const plain = await (
      await handler(post(get, { ...mcpHeaders('tasks/get', { 'mcp-name': 't' }), traceparent }))
    ).json();
    expect(plain.result.echo._meta).toEqual(meta());
  });

  it('reads a body of declared length in one piece and leaves request.signal alone when nobody needs it', async () => {
    // Node adapters build a web stream for `request.body` and an AbortController for `request.signal` on first use:
    // an answer the runtime gives at once, without reading context.signal, must need neither.
    const { handler } = setup();
    const text = JSON.stringify(rpc(20, 'tools/call', { name: 'greet', arguments: { who: 'x' } }));
    const request = post(
      text,
      mcpHeaders('tools/call', { 'mcp-name': 'greet', 'content-length': String(text.length) }),
    );
    const touched: string[] = [];
    const watched = new Proxy(request, {
      get(target, key) {
        if (key === 'signal' || key === 'body') touched.push(key);
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const res = await handler(watched);
    expect(await res.json()).toMatchObject({ id: 20, result: { echo: { name: 'greet' } } });
    expect(touched).toEqual([]);
  });

  it('reads each header of a 2026-07-28 request at most once', async () => {
    // A lookup through a Node adapter's lazy headers costs about as much as the runtime's whole tasks/get.
    const { handler } = setup();
    const call = rpc(21, 'tools/call', { name: 'greet', arguments: { who: 'x' } });
    const request = post(call, mcpHeaders('tools/call', { 'mcp-name': 'greet' }));
    const lookups: string[] = [];
    const get = request.headers.get.bind(request.headers);
    Object.defineProperty(request.headers, 'get', {
      value: (name: string) => {
        lookups.push(name.toLowerCase());
        return get(name);
      },
    });
    const res = await handler(request);
    expect(await res.json()).toMatchObject({ id: 21, result: { echo: { name: 'greet' } } });
    expect(lookups).toContain('mcp-protocol-version');
    expect(lookups.length).toBe(new Set(lookups).size);
  });

  it('answers tasks/get whose Mcp-Name matches the taskId, and rejects one that does not (-32020, 400)', async () => {
    const { handler, recorded } = setup();
    const get = rpc(2, 'tasks/get', { taskId: 'task-1' });
    const ok = await handler(post(get, mcpHeaders('tasks/get', { 'mcp-name': 'task-1' })));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ id: 2, result: { echo: { taskId: 'task-1' } } });
    const bad = await handler(post(get, mcpHeaders('tasks/get', { 'mcp-name': 'task-2' })));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ id: 2, error: { code: -32020 } });
    expect(recorded.contexts).toHaveLength(1);
  });

  it('streams progress notifications as SSE, then the response', async () => {
    const { handler } = setup();
    const res = await handler(post(rpc(3, 'progress'), mcpHeaders('progress')));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const seen = await events(res);
    expect(seen.map((e) => (e.params as { progress?: number } | undefined)?.progress ?? 'response')).toEqual([
      1,
      2,
      3,
      'response',
    ]);
    expect(seen[3]).toMatchObject({ id: 3, result: { done: true } });
  });

  it('keeps a listen stream open and aborts the runtime when the reader cancels it', async () => {
    const { handler, recorded } = setup();
    const res = await handler(post(rpc(4, 'listen'), mcpHeaders('listen')));
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('notifications/subscriptions/acknowledged');
    expect(recorded.contexts[0]?.signal.aborted).toBe(false);
    await reader.cancel();
    await recorded.aborted;
    expect(recorded.contexts[0]?.signal.aborted).toBe(true);
  });

  it('aborts the runtime when request.signal aborts (the client went away)', async () => {
    const { handler, recorded } = setup();
    const controller = new AbortController();
    const res = await handler(post(rpc(5, 'listen'), mcpHeaders('listen'), { signal: controller.signal }));
    await (res.body as ReadableStream<Uint8Array>).getReader().read();
    controller.abort();
    await recorded.aborted;
    expect(recorded.contexts[0]?.signal.aborted).toBe(true);
  });

  it('settles the Response when request.signal aborts before the runtime answered (no stream yet)', async () => {
    const contexts: RequestContext[] = [];
    const handler = createFetchHandler(async (message, context) => {
      contexts.push(context);
      await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
      return { jsonrpc: '2.0', id: (message as { id: number }).id, result: { resultType: 'complete' } };
    });
    const controller = new AbortController();
    const pending = handler(post(rpc(16, 'tools/list'), mcpHeaders('tools/list'), { signal: controller.signal }));
    await vi.waitFor(() => expect(contexts).toHaveLength(1));
    controller.abort();
    expect((await pending).status).toBe(400);
    expect(contexts[0]?.signal.aborted).toBe(true);
  });

  it('sends keep-alive comments on a quiet stream', async () => {
    const { handler } = setup({ keepAliveIntervalMs: 5 });
    const res = await handler(post(rpc(6, 'listen'), mcpHeaders('listen')));
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('\n:\n\n')) text += decoder.decode((await reader.read()).value);
    await reader.cancel();
    expect(text.startsWith('event: message\ndata: ')).toBe(true);
  });

  it('answers an accepted notification with 202 and no body, and GET with 405', async () => {
    const { handler } = setup();
    const res = await handler(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, mcpHeaders('x')));
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
    const get = await handler(new Request(URL_));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('maps runtime errors to their HTTP status and a rejecting runtime to 500/-32603', async () => {
    const { handler } = setup();
    const notFound = await handler(post(rpc(7, 'fail', { code: -32601 }), mcpHeaders('fail')));
    expect(notFound.status).toBe(404);
    const unavailable = await handler(
      post(rpc(9, 'fail', { code: -32603, data: { retryAfterSeconds: 2 } }), mcpHeaders('fail')),
    );
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBe('2');
    const thrown = await handler(post(rpc(8, 'throw'), mcpHeaders('throw')));
    expect(thrown.status).toBe(500);
    expect(await thrown.json()).toMatchObject({ id: 8, error: { code: -32603 } });
  });
});

describe('createFetchHandler: rejections', () => {
  it('answers bad JSON with 400 and -32700 without an id', async () => {
    const { handler, recorded } = setup();
    const res = await handler(post('{"jsonrpc":', mcpHeaders('tools/list')));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe(-32700);
    expect(body).not.toHaveProperty('id');
    expect(recorded.contexts).toHaveLength(0);
  });

  it('rejects an MCP-Protocol-Version header that disagrees with _meta, or is missing (-32020, 400)', async () => {
    const { handler, recorded } = setup();
    const wrong = await handler(
      post({ ...rpc(9, 'server/discover'), params: { _meta: meta('2025-11-25') } }, mcpHeaders('server/discover')),
    );
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ id: 9, error: { code: -32020 } });
    const { 'mcp-protocol-version': _v, ...noVersion } = mcpHeaders('tools/list');
    expect((await handler(post(rpc(10, 'tools/list'), noVersion))).status).toBe(400);
    expect(recorded.contexts).toHaveLength(0);
  });

  it('refuses a body over maxBodyBytes with 413, declared or streamed', async () => {
    const { handler, recorded } = setup({ maxBodyBytes: 1024 });
    const big = JSON.stringify(rpc(11, 'tools/list', { pad: 'x'.repeat(2048) }));
    const declared = await handler(post(big, mcpHeaders('tools/list', { 'content-length': String(big.length) })));
    expect(declared.status).toBe(413);
    expect((await declared.json()).error.code).toBe(-32600);
    const chunk = new TextEncoder().encode(' '.repeat(512));
    let pulls = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        pulls++;
        controller.enqueue(chunk);
      },
    });
    const streamed = await handler(
      new Request(URL_, {
        method: 'POST',
        headers: mcpHeaders('tools/list'),
        body: endless,
        duplex: 'half',
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
    expect(pulls).toBeLessThan(10);
    expect(recorded.contexts).toHaveLength(0);
  });

  it('rejects a foreign Origin (403) unless allowedOrigins lists it, and a Host outside allowedHosts', async () => {
    const body = rpc(12, 'tools/list');
    const headers = { ...mcpHeaders('tools/list'), origin: 'http://evil.example.com' };
    expect((await setup().handler(post(body, headers))).status).toBe(403);
    const open = setup({ allowedOrigins: ['http://evil.example.com'] });
    expect((await open.handler(post(body, headers))).status).toBe(200);
    const rebound = { ...mcpHeaders('tools/list'), host: 'evil.example.com', origin: 'http://evil.example.com' };
    const local = setup({ allowedHosts: ['localhost', '127.0.0.1'] });
    expect((await local.handler(post(body, rebound))).status).toBe(403);
    expect(
      (await local.handler(post(body, { ...mcpHeaders('tools/list'), origin: 'http://localhost:8787' }))).status,
    ).toBe(200);
  });

  it('authenticates before reading the body: 401 with WWW-Authenticate, 500 when it throws, principal bound', async () => {
    const authenticate = (request: Request) =>
      request.headers.get('authorization') === 'Bearer good' ? 'alice' : null;
    const { handler, recorded } = setup({ authenticate, wwwAuthenticate: 'Bearer realm="mcp"' });
    const denied = await handler(post(rpc(13, 'tools/list'), mcpHeaders('tools/list')));
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toBe('Bearer realm="mcp"');
    const allowed = await handler(
      post(rpc(14, 'tools/list'), mcpHeaders('tools/list', { authorization: 'Bearer good' })),
    );
    expect(allowed.status).toBe(200);
    expect(recorded.contexts.map((c) => c.principal)).toEqual(['alice']);
    const broken = setup({
      authenticate: () => {
        throw new Error('auth backend down');
      },
    });
    expect((await broken.handler(post(rpc(15, 'tools/list'), mcpHeaders('tools/list')))).status).toBe(500);
  });
});

describe('createFetchHandler: Mcp-Param-* against the endpoint’s x-mcp-header annotations', () => {
  const call = (region: unknown) =>
    rpc(20, 'tools/call', { name: 'execute_sql', arguments: region === undefined ? {} : { region } });
  const headers = (extra: Record<string, string> = {}) =>
    mcpHeaders('tools/call', { 'mcp-name': 'execute_sql', ...extra });

  it.each([
    ['a missing header for a present argument', 'us', {}],
    ['a mismatched value', 'us', { 'mcp-param-region': 'eu' }],
    ['a Base64 sentinel with bad padding', 'Hello', { 'mcp-param-region': '=?base64?SGVsbG8?=' }],
    ['a header for an absent argument', undefined, { 'mcp-param-region': 'eu' }],
  ])('rejects %s with 400 and -32020 before the runtime sees it', async (_label, region, extra) => {
    const { handler, recorded } = setup();
    const res = await handler(post(call(region), headers(extra as Record<string, string>)));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ id: 20, error: { code: -32020 } });
    expect(recorded.contexts).toHaveLength(0);
  });

  it.each([
    ['a plain value', 'us-west1', 'us-west1'],
    ['a decoded Base64 sentinel', 'Hello', '=?base64?SGVsbG8=?='],
    ['a case-insensitive header name', 'eu', 'eu'],
  ])('accepts %s', async (_label, region, value) => {
    const { handler, recorded } = setup();
    const res = await handler(post(call(region), headers({ 'Mcp-Param-REGION': value })));
    expect(res.status).toBe(200);
    expect(recorded.contexts).toHaveLength(1);
  });

  it('checks nothing for a bare MessageHandler (a runtime without annotations)', async () => {
    const runtime = fakeRuntime();
    const res = await createFetchHandler(runtime.handler)(post(call('us'), headers()));
    expect(res.status).toBe(200);
  });
});

describe('mounted the way the README shows', () => {
  it('runs as a Workers/Bun/Deno style `export default { fetch }` object', async () => {
    const runtime = fakeRuntime();
    // As in the README.
    const mcp = createFetchHandler(runtime.handler, { allowedHosts: ['localhost'] });
    const worker = {
      fetch: (request: Request) =>
        new URL(request.url).pathname === '/mcp' ? mcp(request) : new Response(null, { status: 404 }),
    };
    const res = await worker.fetch(post(rpc(30, 'tools/list'), mcpHeaders('tools/list')));
    expect(await res.json()).toMatchObject({ id: 30, result: { resultType: 'complete' } });
    expect((await worker.fetch(new Request('http://localhost:8787/other'))).status).toBe(404);
  });
});

describe('mounted in Hono (`app.all(path, (c) => handler(c.req.raw))`)', () => {
  it('serves JSON and SSE through a Hono route, and leaves other routes to Hono', async () => {
    const runtime = fakeRuntime();
    const handler = createFetchHandler(runtime.handler);
    const app = new Hono();
    app.get('/health', (c) => c.json({ ok: true }));
    app.all('/mcp', (c) => handler(c.req.raw));

    const json = await app.fetch(post(rpc(31, 'tools/list'), mcpHeaders('tools/list')));
    expect(await json.json()).toMatchObject({ id: 31, result: { resultType: 'complete' } });
    const sse = await app.fetch(post(rpc(32, 'progress'), mcpHeaders('progress')));
    expect((await events(sse)).map((e) => e.id ?? e.method)).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      32,
    ]);
    expect((await app.fetch(new Request('http://localhost:8787/health'))).status).toBe(200);
  });
});
