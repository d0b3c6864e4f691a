import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../src/index.js';
import { ack, FakeTransport, type Responder } from './fakeTransport.js';

const clientInfo = { name: 'test-client', version: '1.0.0' };
const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

function setup(responder: Responder, cache = true) {
  const transport = new FakeTransport(responder);
  return { transport, client: new McpClient({ transport, clientInfo, cache }) };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('listing and the other methods', () => {
  it('follows nextCursor across pages', async () => {
    const { transport, client } = setup((req) =>
      req.params?.cursor === undefined
        ? { resultType: 'complete', tools: [tool('a')], nextCursor: 'p2' }
        : { resultType: 'complete', tools: [tool('b')] },
    );
    const tools = await client.listAllTools();
    expect(tools.map((t) => t.name)).toEqual(['a', 'b']);
    expect(transport.calls('tools/list')[1]!.params).toMatchObject({ cursor: 'p2' });
  });

  it('sends discover, prompts, resources, templates and completion requests with their params', async () => {
    const { transport, client } = setup((req) => {
      switch (req.method) {
        case 'server/discover':
          return {
            resultType: 'complete',
            supportedVersions: ['2026-07-28'],
            capabilities: {},
            serverInfo: { name: 's', version: '1' },
          };
        case 'prompts/list':
          return { resultType: 'complete', prompts: [{ name: 'p' }] };
        case 'resources/list':
          return { resultType: 'complete', resources: [{ uri: 'file:///a', name: 'a' }] };
        case 'resources/templates/list':
          return { resultType: 'complete', resourceTemplates: [] };
        case 'completion/complete':
          return { resultType: 'complete', completion: { values: ['x'] } };
        default:
          return ack;
      }
    });
    await client.discover();
    await expect(client.listPrompts()).resolves.toMatchObject({ prompts: [{ name: 'p' }] });
    await expect(client.listResources('c1')).resolves.toMatchObject({ resources: [{ uri: 'file:///a' }] });
    await client.listResourceTemplates();
    await expect(
      client.complete({ ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: 'x' } }),
    ).resolves.toMatchObject({ completion: { values: ['x'] } });
    expect(transport.requests.map((r) => r.message.method)).toEqual([
      'server/discover',
      'prompts/list',
      'resources/list',
      'resources/templates/list',
      'completion/complete',
    ]);
    expect(transport.calls('resources/list')[0]!.params).toMatchObject({ cursor: 'c1' });
  });
});

describe('result caching', () => {
  const listing = (ttlMs?: number) => (): Record<string, unknown> => ({
    resultType: 'complete',
    tools: [tool('a')],
    ...(ttlMs === undefined ? {} : { ttlMs, cacheScope: 'private' }),
  });

  it('serves a list from cache while fresh per ttlMs, then refetches', async () => {
    const { transport, client } = setup(listing(1000));
    await client.listTools();
    await vi.advanceTimersByTimeAsync(999);
    await client.listTools();
    expect(transport.calls('tools/list')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await client.listTools();
    expect(transport.calls('tools/list')).toHaveLength(2);
  });

  it('does not cache when ttlMs is 0, absent or negative', async () => {
    for (const ttl of [0, undefined, -5]) {
      const { transport, client } = setup(listing(ttl));
      await client.listTools();
      await client.listTools();
      expect(transport.calls('tools/list')).toHaveLength(2);
    }
  });

  it('keys pages by cursor', async () => {
    const { transport, client } = setup(listing(60_000));
    await client.listTools();
    await client.listTools('p2');
    await client.listTools('p2');
    expect(transport.calls('tools/list').map((m) => m.params?.cursor)).toEqual([undefined, 'p2']);
  });

  it('invalidates on a list-changed notification', async () => {
    const { transport, client } = setup((req, { notify }) => {
      if (req.method === 'subscriptions/listen') {
        notify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: {} });
        return ack;
      }
      return listing(60_000)();
    });
    await client.listTools();
    await client.request('subscriptions/listen', { notifications: { toolsListChanged: true } });
    await client.listTools();
    expect(transport.calls('tools/list')).toHaveLength(2);
  });

  it('invalidates one resource on notifications/resources/updated', async () => {
    const { transport, client } = setup((req, { notify }) => {
      if (req.method === 'subscriptions/listen') {
        notify({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'file:///a' } });
        return ack;
      }
      return { resultType: 'complete', contents: [], ttlMs: 60_000 };
    });
    await client.readResource('file:///a');
    await client.readResource('file:///b');
    await client.request('subscriptions/listen', { notifications: { resourceSubscriptions: ['file:///a'] } });
    await client.readResource('file:///a');
    await client.readResource('file:///b');
    expect(transport.calls('resources/read').map((m) => m.params?.uri)).toEqual([
      'file:///a',
      'file:///b',
      'file:///a',
    ]);
  });

  it('can be turned off', async () => {
    const { transport, client } = setup(listing(60_000), false);
    await client.listTools();
    await client.listTools();
    expect(transport.calls('tools/list')).toHaveLength(2);
  });

  it('never caches tasks/get, whatever its ttlMs (C25)', async () => {
    const { transport, client } = setup(() => ({
      resultType: 'complete',
      taskId: 't-1',
      status: 'working',
      createdAt: new Date(0).toISOString(),
      lastUpdatedAt: new Date(0).toISOString(),
      ttlMs: 60_000,
    }));
    await client.getTask('t-1');
    await client.getTask('t-1');
    expect(transport.calls('tasks/get')).toHaveLength(2);
  });
});

describe('result caching and cursors', () => {
  it('drops all cached pages of a list when the server rejects a cursor', async () => {
    let rejectCursor = false;
    const transport = new FakeTransport((req) => {
      if (rejectCursor && req.params?.cursor !== undefined) return { error: { code: -32602, message: 'bad cursor' } };
      return { resultType: 'complete', tools: [tool('a')], ttlMs: 60_000, cacheScope: 'public' };
    });
    const client = new McpClient({ transport, clientInfo });
    await client.listTools();
    await client.listTools();
    expect(transport.calls('tools/list')).toHaveLength(1);
    rejectCursor = true;
    await expect(client.listTools('stale')).rejects.toMatchObject({ code: -32602 });
    await client.listTools();
    expect(transport.calls('tools/list')).toHaveLength(3);
  });
});
