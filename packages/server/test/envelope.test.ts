import { META, TASKS_EXTENSION_ID } from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../src/index.js';
import { fixtureServer } from './fixture.js';
import { BASE_CAPS, fakeContext, Loopback, request } from './harness.js';

let server: McpServer;
afterEach(async () => server?.close());

function setup() {
  server = fixtureServer();
  return new Loopback(server);
}

describe('JSON-RPC envelope', () => {
  it.each([
    ['a string', 'hello', null],
    ['an array (no batching)', [], null],
    ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 1, method: 'tools/list' }, 1],
    ['a missing method', { jsonrpc: '2.0', id: 2 }, 2],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'tools/list' }, null],
    ['non-object params', { jsonrpc: '2.0', id: 3, method: 'tools/list', params: [1] }, 3],
  ])('answers -32600 to %s, echoing a readable id', async (_label, message, id) => {
    setup();
    const response = await server.handle(message, fakeContext().context);
    expect(response).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    // An id that cannot be read is omitted (2026-07-28 schema: optional string | integer, never null).
    if (id === null) expect(response).not.toHaveProperty('id');
    else expect(response).toHaveProperty('id', id);
  });

  it('returns nothing for notifications and stray responses', async () => {
    setup();
    const { context } = fakeContext();
    expect(
      await server.handle({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} }, context),
    ).toBeUndefined();
    expect(await server.handle({ jsonrpc: '2.0', id: 1, result: {} }, context)).toBeUndefined();
  });
});

describe('per-request _meta (CONFORMANCE 5)', () => {
  it('rejects missing _meta, protocolVersion or clientCapabilities with -32602', async () => {
    setup();
    const { context } = fakeContext();
    const noMeta = await server.handle({ jsonrpc: '2.0', id: 101, method: 'server/discover', params: {} }, context);
    expect(noMeta).toMatchObject({ id: 101, error: { code: -32602 } });
    const noVersion = await server.handle(
      { jsonrpc: '2.0', id: 102, method: 'server/discover', params: { _meta: { [META.clientCapabilities]: {} } } },
      context,
    );
    expect(noVersion).toMatchObject({ id: 102, error: { code: -32602 } });
    const noCaps = await server.handle(
      {
        jsonrpc: '2.0',
        id: 104,
        method: 'server/discover',
        params: { _meta: { [META.protocolVersion]: '2026-07-28' } },
      },
      context,
    );
    expect(noCaps).toMatchObject({ id: 104, error: { code: -32602 } });
  });

  it('validates _meta before dispatch, so an unknown method without _meta is -32602', async () => {
    setup();
    const response = await server.handle({ jsonrpc: '2.0', id: 7, method: 'ping', params: {} }, fakeContext().context);
    expect(response).toMatchObject({ error: { code: -32602 } });
  });

  it('answers a legacy initialize (no _meta) with -32022 naming the versions it speaks (versioning.mdx)', async () => {
    setup();
    const response = await server.handle(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
      },
      fakeContext().context,
    );
    expect(response).toMatchObject({
      id: 1,
      error: {
        code: -32022,
        message: expect.stringContaining('2026-07-28'),
        data: { supported: ['2026-07-28'], requested: '2025-11-25' },
      },
    });
  });

  it('names its versions in the -32601 for an initialize carrying the 2026 envelope', async () => {
    const client = setup();
    const error = await client.fail('initialize');
    expect(error).toMatchObject({ code: -32601, message: expect.stringContaining('2026-07-28') });
  });

  it('accepts a request without clientInfo', async () => {
    const client = setup();
    const message = request('tools/list');
    delete (message.params._meta as Record<string, unknown>)[META.clientInfo];
    const response = await server.handle(message, fakeContext().context);
    expect(response).toHaveProperty('result');
    expect(await client.ok('tools/list')).toHaveProperty('tools');
  });

  it('rejects an unsupported version with -32022 and data.supported / data.requested', async () => {
    const client = setup();
    const error = await client.fail('server/discover', {}, { meta: { [META.protocolVersion]: 'v999.0.0' } });
    expect(error.code).toBe(-32022);
    expect(error.data).toEqual({ supported: ['2026-07-28'], requested: 'v999.0.0' });
  });

  it('S42: under 2025-11-25 the tasks capability enables nothing (the version is refused)', async () => {
    const client = setup();
    const error = await client.fail(
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0 } },
      {
        meta: { [META.protocolVersion]: '2025-11-25' },
      },
    );
    expect(error.code).toBe(-32022);
  });

  it('rejects an unknown log level with -32602', async () => {
    const client = setup();
    const error = await client.fail('tools/list', {}, { meta: { [META.logLevel]: 'loud' } });
    expect(error.code).toBe(-32602);
  });

  it.each(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe', 'unknown/method'])(
    'answers -32601 to the removed or unknown method %s',
    async (method) => {
      const client = setup();
      const error = await client.fail(method);
      expect(error).toMatchObject({ code: -32601, message: expect.stringContaining(method) });
    },
  );

  it('S38/S43: tasks/result and tasks/list are -32601', async () => {
    const client = setup();
    expect((await client.fail('tasks/result', { taskId: 'tasks-conformance-isolation-probe' })).code).toBe(-32601);
    expect((await client.fail('tasks/list')).code).toBe(-32601);
  });
});

describe('server/discover', () => {
  it('S1/S2/S40: advertises the Tasks extension as {} and never a tasks key', async () => {
    const client = setup();
    const result = await client.ok('server/discover');
    expect(result.supportedVersions).toEqual(['2026-07-28']);
    const capabilities = result.capabilities as Record<string, unknown>;
    expect(capabilities.extensions).toEqual({ [TASKS_EXTENSION_ID]: {} });
    expect(capabilities).not.toHaveProperty('tasks');
    expect(capabilities).toMatchObject({ tools: { listChanged: true }, prompts: {}, resources: { subscribe: true } });
    expect(result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'public' });
    expect(result._meta).toEqual({ [META.serverInfo]: { name: 'fixture', version: '1.0.0' } });
  });

  it('reads capabilities from each request alone (S3): discover first does not enable tasks later', async () => {
    const client = setup();
    await client.ok('server/discover');
    const result = await client.call('slow_compute', { seconds: 0 }, { caps: BASE_CAPS });
    expect(result.resultType).toBe('complete');
    expect(result).not.toHaveProperty('taskId');
  });
});

describe('results and errors', () => {
  it('S45: every result carries resultType and serverInfo; cacheable ones carry ttlMs and cacheScope', async () => {
    const client = setup();
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
      const result = await client.ok(method);
      expect(result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
      expect(result._meta).toHaveProperty([META.serverInfo]);
    }
    const read = await client.ok('resources/read', { uri: 'test://static-text' });
    expect(read).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
  });

  it("S45: adds serverInfo to a result's own _meta without touching the object the tool returned", async () => {
    server = new McpServer({ serverInfo: { name: 's', version: '1' } });
    const shared = Object.freeze({ content: [], _meta: Object.freeze({ 'example.com/k': 1 }) });
    server.tool({ name: 'frozen', description: 'returns a shared frozen result', handler: () => shared });
    const client = new Loopback(server);
    for (let call = 0; call < 2; call++) {
      const result = await client.ok('tools/call', { name: 'frozen', arguments: {} });
      expect(result._meta).toEqual({ 'example.com/k': 1, [META.serverInfo]: { name: 's', version: '1' } });
    }
    expect(shared._meta).toEqual({ 'example.com/k': 1 });
  });

  it('answers -32603 for a handler exception without leaking its message', async () => {
    const client = setup();
    const error = await client.fail('prompts/get', { name: 'broken_prompt' });
    expect(error).toEqual({ code: -32603, message: 'Internal error' });
  });

  it('reports unexpected exceptions to onError', async () => {
    const seen: unknown[] = [];
    server = fixtureServer({ onError: (error) => seen.push(error) });
    await new Loopback(server).fail('prompts/get', { name: 'broken_prompt' });
    expect(seen).toHaveLength(1);
  });

  it('uses configured cache hints', async () => {
    server = fixtureServer({ cacheHints: { 'tools/list': { ttlMs: 5000, cacheScope: 'public' } } });
    const result = await new Loopback(server).ok('tools/list');
    expect(result).toMatchObject({ ttlMs: 5000, cacheScope: 'public' });
  });

  it('refuses requests after close', async () => {
    const client = setup();
    await server.close();
    expect((await client.fail('tools/list')).code).toBe(-32603);
  });
});
