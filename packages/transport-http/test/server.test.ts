import { request as httpRequest } from 'node:http';
import type { RequestContext } from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type HttpServerHandle, type ListenOptions, listen } from '../src/server.js';
import { fakeRuntime, mcpHeaders, meta, rawRequest, rpc } from './fakes.js';

let servers: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function start(options: ListenOptions = {}) {
  const runtime = fakeRuntime();
  const handle = await listen(runtime.handler, options);
  servers.push(handle);
  return { ...runtime, url: handle.url };
}

function post(url: URL, body: unknown, headers: Record<string, string>) {
  return fetch(url, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

describe('Streamable HTTP server: plain exchanges', () => {
  it('answers a request with application/json and keeps the connection alive', async () => {
    const { url } = await start();
    const res = await post(url, rpc(1, 'tools/list'), mcpHeaders('tools/list'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('connection')).toBe('keep-alive');
    const body = await res.json();
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } });
  });

  it.each(['GET', 'DELETE', 'PUT'])('answers %s with 405 and Allow: POST', async (method) => {
    const { url } = await start();
    const res = await rawRequest(url, { method });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
  });

  it('answers an accepted notification with 202 and no body', async () => {
    const { url, recorded } = await start();
    const res = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, mcpHeaders('x'));
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
    expect(recorded.contexts).toHaveLength(1);
  });

  it('answers invalid JSON with 400 and -32700 (no id) and keeps serving', async () => {
    const { url } = await start();
    const res = await post(url, '{"jsonrpc":', mcpHeaders('tools/list'));
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe(-32700);
    expect(body).not.toHaveProperty('id');
    expect((await post(url, rpc(2, 'tools/list'), mcpHeaders('tools/list'))).status).toBe(200);
  });

  it('gives 404 with no body for paths other than the endpoint', async () => {
    const { url } = await start();
    const res = await rawRequest(new URL('/other', url), { headers: mcpHeaders('tools/list'), body: '{}' });
    expect(res.status).toBe(404);
    expect(res.body).toBe('');
  });

  it('answers GET on a configured document path with its JSON, and only GET', async () => {
    const document = { resource: 'https://mcp.example/mcp', authorization_servers: ['https://id.example'] };
    const { url } = await start({ documents: { '/.well-known/oauth-protected-resource/mcp': document } });
    const found = await fetch(new URL('/.well-known/oauth-protected-resource/mcp?x=1', url));
    expect(found.headers.get('content-type')).toBe('application/json');
    expect(await found.json()).toEqual(document);
    const posted = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url), { method: 'POST' });
    expect(posted.status).toBe(404);
    expect((await fetch(new URL('/constructor', url))).status).toBe(404);
  });

  it('ignores Mcp-Session-Id and hands the runtime a context without HTTP fields', async () => {
    const { url, recorded } = await start();
    const res = await rawRequest(url, {
      headers: { ...mcpHeaders('tools/list'), 'X-Custom-Thing': 'Value', 'Mcp-Session-Id': 'abc' },
      body: JSON.stringify(rpc(1, 'tools/list')),
    });
    expect(res.status).toBe(200);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    expect('headers' in (recorded.contexts[0] ?? {})).toBe(false);
    expect(recorded.contexts[0]?.principal).toBeUndefined();
  });
});

describe('Streamable HTTP server: CONFORMANCE.md 6.1 validation order and statuses', () => {
  async function expectHeaderMismatch(body: unknown, headers: Record<string, string>, id: number | string = 1) {
    const { url, recorded } = await start();
    const res = await rawRequest(url, { headers, body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32020 } });
    // Rejected by the transport: the runtime never saw it.
    expect(recorded.contexts).toHaveLength(0);
  }

  async function expectAccepted(body: unknown, headers: Record<string, string>) {
    const { url, recorded } = await start();
    const res = await rawRequest(url, { headers, body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).not.toHaveProperty('error');
    expect(recorded.contexts).toHaveLength(1);
  }

  const { 'mcp-method': _omit, ...noMethod } = mcpHeaders('tools/list');

  it('rejects a missing Mcp-Method (-32020, 400)', () => expectHeaderMismatch(rpc(1, 'tools/list'), noMethod));
  it('passes a 2025-era initialize without routing headers to the runtime, which names its versions', async () => {
    const { url, recorded } = await start();
    const legacy = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } };
    const res = await post(url, legacy, { 'content-type': 'application/json', accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(recorded.contexts).toHaveLength(1);
  });
  it('still checks an initialize that carries routing headers', () =>
    expectHeaderMismatch(rpc(1, 'initialize'), mcpHeaders('tools/list')));
  it('rejects Mcp-Method different from the body method', () =>
    expectHeaderMismatch(rpc(1, 'tools/list'), mcpHeaders('prompts/list')));
  it('compares Mcp-Method case-sensitively (TOOLS/LIST)', () =>
    expectHeaderMismatch(rpc(1, 'tools/list'), mcpHeaders('TOOLS/LIST')));
  it('accepts any header-name case (MCP-METHOD, mcp-method)', async () => {
    await expectAccepted(rpc(1, 'tools/list'), { ...noMethod, 'MCP-METHOD': 'tools/list' });
    await expectAccepted(rpc(1, 'tools/list'), { ...noMethod, 'mcp-method': 'tools/list' });
  });
  it('echoes a string request id in a -32020 error', () =>
    expectHeaderMismatch(rpc('req-7', 'tools/list'), mcpHeaders('prompts/list'), 'req-7'));

  const call = rpc(1, 'tools/call', { name: 'greet', arguments: {} });
  it('rejects tools/call without Mcp-Name', () => expectHeaderMismatch(call, mcpHeaders('tools/call')));
  it('rejects tools/call with a wrong Mcp-Name', () =>
    expectHeaderMismatch(call, mcpHeaders('tools/call', { 'mcp-name': 'wrong_tool_name' })));
  it('accepts Mcp-Name with surrounding whitespace (OWS is trimmed)', () =>
    expectAccepted(call, mcpHeaders('tools/call', { 'mcp-name': '  greet  ' })));
  it('decodes a Base64-sentinel Mcp-Name before comparing', () =>
    expectAccepted(
      rpc(1, 'tools/call', { name: 'héllo wörld', arguments: {} }),
      mcpHeaders('tools/call', { 'mcp-name': `=?base64?${Buffer.from('héllo wörld').toString('base64')}?=` }),
    ));
  it('rejects a sentinel Mcp-Name with bad padding', () =>
    expectHeaderMismatch(
      rpc(1, 'tools/call', { name: 'Hello', arguments: {} }),
      mcpHeaders('tools/call', { 'mcp-name': '=?base64?SGVsbG8?=' }),
    ));
  it('rejects a sentinel Mcp-Name with a bad alphabet', () =>
    expectHeaderMismatch(
      rpc(1, 'tools/call', { name: 'Hello', arguments: {} }),
      mcpHeaders('tools/call', { 'mcp-name': '=?base64?SGVs!!!bG8=?=' }),
    ));
  it('checks Mcp-Name against params.uri for resources/read', async () => {
    const read = rpc(1, 'resources/read', { uri: 'file:///a%20b.txt?x=1' });
    await expectAccepted(read, mcpHeaders('resources/read', { 'mcp-name': 'file:///a%20b.txt?x=1' }));
    await expectHeaderMismatch(read, mcpHeaders('resources/read', { 'mcp-name': 'file:///other' }));
  });
  it('checks Mcp-Name against params.name for prompts/get', () =>
    expectHeaderMismatch(rpc(1, 'prompts/get', { name: 'p' }), mcpHeaders('prompts/get', { 'mcp-name': 'q' })));
  it.each(['tasks/get', 'tasks/update', 'tasks/cancel'])('S37: %s needs Mcp-Name equal to taskId', async (method) => {
    const body = rpc(1, method, { taskId: 'task-123' });
    await expectAccepted(body, mcpHeaders(method, { 'mcp-name': 'task-123' }));
    await expectHeaderMismatch(body, mcpHeaders(method, { 'mcp-name': 'sep-2663-wrong-task-id' }));
    await expectHeaderMismatch(body, mcpHeaders(method));
  });
  it('does not require Mcp-Name for tasks/result and tasks/list (the runtime answers -32601)', async () => {
    await expectAccepted(rpc(1, 'tasks/result', { taskId: 'x' }), mcpHeaders('tasks/result'));
    await expectAccepted(rpc(1, 'tasks/list'), mcpHeaders('tasks/list'));
  });

  it('rejects a missing MCP-Protocol-Version (-32020)', () => {
    const { 'mcp-protocol-version': _v, ...headers } = mcpHeaders('tools/list');
    return expectHeaderMismatch(rpc(1, 'tools/list'), headers);
  });
  it('rejects MCP-Protocol-Version different from _meta (mismatch before unsupported)', () =>
    expectHeaderMismatch(
      { ...rpc(1, 'server/discover'), params: { _meta: meta('v999.0.0') } },
      mcpHeaders('server/discover'),
    ));
  it('leaves an incomplete _meta to the runtime (its -32602 comes before a version mismatch)', async () => {
    const noCaps = { _meta: { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' } };
    await expectAccepted(
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: noCaps },
      mcpHeaders('server/discover'),
    );
    await expectAccepted(
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} },
      mcpHeaders('server/discover'),
    );
  });
  it('leaves an unsupported but consistent version to the runtime (-32022 is its call)', () =>
    expectAccepted(
      { ...rpc(1, 'server/discover'), params: { _meta: meta('v999.0.0') } },
      { ...mcpHeaders('server/discover'), 'mcp-protocol-version': 'v999.0.0' },
    ));

  it.each([
    [-32601, 404],
    [-32602, 400],
    [-32600, 400],
    [-32020, 400],
    [-32021, 400],
    [-32022, 400],
    [-32603, 500],
    [-32042, 200],
  ])('maps a runtime error %i to HTTP %i with the request id', async (code, status) => {
    const { url } = await start();
    const res = await post(url, rpc(9, 'fail', { code }), mcpHeaders('fail'));
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ id: 9, error: { code } });
  });

  it.each([
    [-32603, { retryAfterSeconds: 1 }, 503, '1'],
    [-32603, { retryAfterSeconds: 'soon' }, 503, '1'],
    [-32029, { retryAfterSeconds: 7 }, 429, '7'],
    [-32603, { reason: 'bug' }, 500, null],
  ])('answers %i with data %j as HTTP %i with Retry-After %s', async (code, data, status, retryAfter) => {
    // A store that cannot answer for a moment (a database restarting) says when to retry: 503, not a server fault.
    const { url } = await start();
    const res = await post(url, rpc(9, 'fail', { code, data }), mcpHeaders('fail'));
    expect(res.status).toBe(status);
    expect(res.headers.get('retry-after')).toBe(retryAfter);
    expect(await res.json()).toMatchObject({ id: 9, error: { code, data } });
  });

  it('answers a rejecting runtime with 500 and -32603 carrying the id', async () => {
    const { url } = await start();
    const res = await post(url, rpc(3, 'throw'), mcpHeaders('throw'));
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ id: 3, error: { code: -32603 } });
  });
});

describe('Streamable HTTP server: a runtime that breaks its contract', () => {
  it('answers a runtime that throws synchronously, or answers a request with nothing, with 500/-32603', async () => {
    const handle = await listen((message) => {
      if ((message as { method?: string }).method === 'sync-throw') throw new Error('runtime bug');
      return Promise.resolve(undefined);
    });
    servers.push(handle);
    for (const [id, method] of [
      [4, 'sync-throw'],
      [5, 'nothing'],
    ] as const) {
      const res = await post(handle.url, rpc(id, method), mcpHeaders(method));
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error' } });
    }
  });
});

describe('Streamable HTTP server: body limit', () => {
  it('refuses a declared Content-Length over maxBodyBytes with 413 and keeps serving', async () => {
    const { url, recorded } = await start({ maxBodyBytes: 1024 });
    const big = JSON.stringify(rpc(1, 'tools/list', { pad: 'x'.repeat(2048) }));
    const res = await rawRequest(url, { headers: mcpHeaders('tools/list'), body: big });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error.code).toBe(-32600);
    expect(recorded.contexts).toHaveLength(0);
    expect((await post(url, rpc(2, 'tools/list'), mcpHeaders('tools/list'))).status).toBe(200);
  });

  it('stops buffering a chunked body once it passes the limit', async () => {
    const { url, recorded } = await start({ maxBodyBytes: 1024 });
    const chunks = Array.from({ length: 8 }, () => Buffer.alloc(512, 0x20));
    const res = await rawRequest(url, {
      headers: { ...mcpHeaders('tools/list'), 'transfer-encoding': 'chunked' },
      body: chunks,
    });
    expect(res.status).toBe(413);
    expect(recorded.contexts).toHaveLength(0);
  });

  it('accepts a 1 MiB message under the default limit', async () => {
    const { url } = await start();
    const pad = 'y'.repeat(1024 * 1024);
    const res = await post(url, rpc(1, 'tools/list', { pad }), mcpHeaders('tools/list'));
    expect(res.status).toBe(200);
    expect((await res.json()).result.echo.pad).toHaveLength(pad.length);
  });
});

describe('Streamable HTTP server: authentication and DNS rebinding protection', () => {
  const authenticate = (req: { headers: Record<string, string | string[] | undefined> }) =>
    req.headers.authorization === 'Bearer good' ? 'alice' : null;

  it('rejects an unauthenticated request with 401 and WWW-Authenticate before the runtime sees it', async () => {
    const { url, recorded } = await start({ authenticate, wwwAuthenticate: 'Bearer realm="mcp"' });
    const res = await post(url, rpc(1, 'tools/list'), mcpHeaders('tools/list'));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="mcp"');
    expect(recorded.contexts).toHaveLength(0);
  });

  it('binds the principal from authenticate() to RequestContext.principal', async () => {
    const { url, recorded } = await start({ authenticate: async (req) => authenticate(req) });
    const res = await post(url, rpc(1, 'tools/list'), mcpHeaders('tools/list', { authorization: 'Bearer good' }));
    expect(res.status).toBe(200);
    expect(recorded.contexts[0]?.principal).toBe('alice');
  });

  it('answers 500 when authenticate throws', async () => {
    const { url } = await start({
      authenticate: () => {
        throw new Error('auth backend down');
      },
    });
    expect((await post(url, rpc(1, 'tools/list'), mcpHeaders('tools/list'))).status).toBe(500);
  });

  it('L-S10: rejects a non-loopback Host on a loopback connection with 403 (dns-rebinding-protection)', async () => {
    const { url, recorded } = await start();
    const res = await rawRequest(url, {
      headers: { ...mcpHeaders('tools/list'), host: 'evil.example.com', origin: 'http://evil.example.com' },
      body: JSON.stringify(rpc(1, 'tools/list')),
    });
    expect(res.status).toBe(403);
    expect(recorded.contexts).toHaveLength(0);
  });

  it('accepts the loopback Host with its own Origin', async () => {
    const { url } = await start();
    const res = await rawRequest(url, {
      headers: { ...mcpHeaders('tools/list'), host: url.host, origin: `http://${url.host}` },
      body: JSON.stringify(rpc(1, 'tools/list')),
    });
    expect(res.status).toBe(200);
  });

  it('L-S10: rejects a foreign Origin unless allowedOrigins lists it', async () => {
    const headers = { ...mcpHeaders('tools/list'), origin: 'https://app.example.com' };
    const body = JSON.stringify(rpc(1, 'tools/list'));
    const strict = await start();
    expect((await rawRequest(strict.url, { headers, body })).status).toBe(403);
    const open = await start({ allowedOrigins: ['https://app.example.com'] });
    expect((await rawRequest(open.url, { headers, body })).status).toBe(200);
  });

  it('uses allowedHosts instead of the loopback default, and can be switched off', async () => {
    const headers = { ...mcpHeaders('tools/list'), host: 'mcp.example.com' };
    const body = JSON.stringify(rpc(1, 'tools/list'));
    const listed = await start({ allowedHosts: ['MCP.example.com'] });
    expect((await rawRequest(listed.url, { headers, body })).status).toBe(200);
    const off = await start({ dnsRebindingProtection: false });
    expect((await rawRequest(off.url, { headers: { ...headers, origin: 'http://evil' }, body })).status).toBe(200);
  });
});

function connectionCount(handle: HttpServerHandle): Promise<number> {
  return new Promise((resolve, reject) =>
    handle.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

describe('Streamable HTTP server: a client that goes away', () => {
  it('aborts context.signal read only after the client left (nobody was listening when it did)', async () => {
    let context: RequestContext | undefined;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const handle = await listen(async (message, ctx) => {
      context = ctx;
      await released;
      return { jsonrpc: '2.0', id: (message as { id: number }).id, result: { resultType: 'complete' } };
    });
    servers.push(handle);
    const client = httpRequest(handle.url, { method: 'POST', headers: mcpHeaders('tools/list'), agent: false });
    client.on('error', () => {});
    client.end(JSON.stringify(rpc(1, 'tools/list')));
    await vi.waitFor(() => expect(context).toBeDefined());
    client.destroy();
    // The server has seen the connection close (its only request then has no open connection left).
    await vi.waitFor(async () => expect(await connectionCount(handle)).toBe(0));
    expect(context?.signal.aborted).toBe(true);
    release();
  });
});

describe('Streamable HTTP server: SSE', () => {
  it('switches to text/event-stream when notifications precede the response', async () => {
    const { url } = await start();
    const res = await post(url, rpc(5, 'progress'), mcpHeaders('progress'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    const events = (await res.text())
      .split('\n\n')
      .filter((e) => e !== '')
      .map((e) => {
        expect(e.startsWith('event: message\ndata: ')).toBe(true);
        return JSON.parse(e.slice('event: message\ndata: '.length));
      });
    expect(events.map((e) => e.params?.progress ?? 'response')).toEqual([1, 2, 3, 'response']);
    expect(events[3]).toMatchObject({ id: 5, result: { done: true } });
  });

  it('aborts RequestContext.signal when the client closes a listen stream', async () => {
    const { url, recorded } = await start();
    const controller = new AbortController();
    const res = await fetch(url, {
      method: 'POST',
      headers: mcpHeaders('listen'),
      body: JSON.stringify(rpc(11, 'listen')),
      signal: controller.signal,
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('notifications/subscriptions/acknowledged');
    expect(recorded.contexts[0]?.signal.aborted).toBe(false);
    controller.abort();
    await recorded.aborted;
    expect(recorded.contexts[0]?.signal.aborted).toBe(true);
  });

  it('sends keep-alive comments on a quiet stream', async () => {
    const { url } = await start({ keepAliveIntervalMs: 5 });
    const controller = new AbortController();
    const res = await fetch(url, {
      method: 'POST',
      headers: mcpHeaders('listen'),
      body: JSON.stringify(rpc(12, 'listen')),
      signal: controller.signal,
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('\n:\n\n')) text += decoder.decode((await reader.read()).value);
    controller.abort();
    expect(text.startsWith('event: message\ndata: ')).toBe(true);
  });

  it('aborts the listen stream of every open connection when the server closes', async () => {
    const runtime = fakeRuntime();
    const handle = await listen(runtime.handler);
    const res = await fetch(handle.url, {
      method: 'POST',
      headers: mcpHeaders('listen'),
      body: JSON.stringify(rpc(13, 'listen')),
    });
    await (res.body as ReadableStream<Uint8Array>).getReader().read();
    await handle.close();
    await runtime.recorded.aborted;
    expect(runtime.recorded.contexts[0]?.signal.aborted).toBe(true);
    await handle.close();
  });
});
