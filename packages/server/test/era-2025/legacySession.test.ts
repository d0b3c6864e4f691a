import { ErrorCode, TASKS_EXTENSION_ID } from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { fakeContext, request } from '../harness.js';
import { FakeSession, LegacyClient } from './legacyHarness.js';

const servers: McpServer[] = [];

function legacyServer(options: { maxLegacySessions?: number } = {}): McpServer {
  const server = new McpServer({
    serverInfo: { name: 'legacy-test', version: '1.2.3' },
    instructions: 'Use the tools.',
    ...options,
  });
  server
    .tool({ name: 'echo', description: 'Echoes', handler: () => ({ content: [{ type: 'text', text: 'hi' }] }) })
    .tool({
      name: 'task_only',
      description: 'Runs only as a task',
      taskSupport: 'required',
      handler: () => ({ content: [] }),
    })
    .prompt({
      name: 'greet',
      description: 'Greets',
      arguments: [
        { name: 'who', required: true, complete: (value) => ['world', 'web'].filter((v) => v.startsWith(value)) },
      ],
      handler: (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello ${args.who}` } }] }),
    })
    .resource({
      uri: 'test://static',
      name: 'static',
      mimeType: 'text/plain',
      read: (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: 'static text' }] }),
    });
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const MODERN_KEYS = ['resultType', 'ttlMs', 'cacheScope', '_meta'];

describe('legacy handshake', () => {
  it.each(['2025-03-26', '2025-06-18', '2025-11-25'])(
    'L-S1/L-S2: initialize %s echoes the version',
    async (version) => {
      const client = new LegacyClient(legacyServer());
      const result = await client.connect({ version });
      expect(Object.keys(result).sort()).toEqual(['capabilities', 'instructions', 'protocolVersion', 'serverInfo']);
      expect(result.protocolVersion).toBe(version);
      expect(result.serverInfo).toEqual({ name: 'legacy-test', version: '1.2.3' });
      expect(result.instructions).toBe('Use the tools.');
    },
  );

  it.each([
    ['2026-07-28', '2025-11-25'],
    ['2099-01-01', '2025-11-25'],
    ['2025-07-01', '2025-06-18'],
    ['2025-04-01', '2025-03-26'],
    ['2024-11-05', '2025-11-25'],
    ['junk', '2025-11-25'],
  ])('L-S2: a request for %s is answered with %s', async (requested, answered) => {
    const client = new LegacyClient(legacyServer());
    expect((await client.connect({ version: requested })).protocolVersion).toBe(answered);
  });

  it('L-S3: capabilities are exactly what is served; experimental tasks only in 2025-11-25', async () => {
    const server = legacyServer();
    const base = {
      logging: {},
      completions: {},
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      tools: { listChanged: true },
    };
    for (const version of ['2025-03-26', '2025-06-18']) {
      expect((await new LegacyClient(server).connect({ version })).capabilities).toEqual(base);
    }
    expect((await new LegacyClient(server).connect()).capabilities).toEqual({
      ...base,
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
  });

  it('L-S1: initialize with invalid params is -32602 and opens no session', async () => {
    const client = new LegacyClient(legacyServer());
    const error = await client.fail('initialize', { protocolVersion: '2025-11-25', capabilities: {} });
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toContain('clientInfo');
    expect((await client.fail('tools/list')).code).toBe(ErrorCode.InvalidParams);
  });

  it('L-S6: before initialize a session gets only ping; other legacy requests take the 2026 path (-32602)', async () => {
    const client = new LegacyClient(legacyServer());
    expect(await client.ok('ping')).toEqual({});
    const error = await client.fail('tools/list');
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toContain('_meta');
  });

  it('initialize without a session (a transport without sessions) is -32022 naming the stateless versions', async () => {
    const server = legacyServer();
    const response = await server.handle(
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      },
      fakeContext().context,
    );
    expect(response).toMatchObject({ error: { code: -32022, data: { supported: ['2026-07-28'] } } });
  });

  it('a modern initialize on a session is still -32601', async () => {
    const server = legacyServer();
    const { context } = fakeContext();
    const response = await server.handle(request('initialize'), { ...context, session: new FakeSession() });
    expect(response).toMatchObject({ error: { code: ErrorCode.MethodNotFound } });
  });

  it('a repeated initialize restarts the session state (log level and subscriptions forgotten)', async () => {
    const server = legacyServer();
    const client = new LegacyClient(server);
    await client.connect();
    await client.ok('resources/subscribe', { uri: 'test://static' });
    await client.connect({ version: '2025-06-18' });
    server.resourceUpdated('test://static');
    expect(client.session.notifications).toEqual([]);
  });
});

describe('legacy session methods', () => {
  it('L-S27/L-S34: ping is exactly {} before and after notifications/initialized', async () => {
    const client = new LegacyClient(legacyServer());
    await client.connect({ initialized: false });
    expect(await client.ok('ping')).toStrictEqual({});
    await client.send('notifications/initialized', undefined, { notification: true });
    expect(await client.ok('ping')).toStrictEqual({});
  });

  it('L-S28/L-S34: logging/setLevel answers exactly {}; an unknown level is -32602', async () => {
    const client = new LegacyClient(legacyServer());
    await client.connect();
    expect(await client.ok('logging/setLevel', { level: 'debug' })).toStrictEqual({});
    expect((await client.fail('logging/setLevel', { level: 'loud' })).code).toBe(ErrorCode.InvalidParams);
  });

  it('L-S32: subscribe/unsubscribe answer {}; resources/updated goes to subscribers only, listed or not', async () => {
    const server = legacyServer();
    const subscriber = new LegacyClient(server);
    const other = new LegacyClient(server);
    await subscriber.connect();
    await other.connect();
    expect(await subscriber.ok('resources/subscribe', { uri: 'test://watched-resource' })).toStrictEqual({});
    server.resourceUpdated('test://watched-resource');
    server.resourceUpdated('test://static');
    expect(subscriber.session.notifications).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://watched-resource' } },
    ]);
    expect(other.session.notifications).toEqual([]);
    expect(await subscriber.ok('resources/unsubscribe', { uri: 'test://watched-resource' })).toStrictEqual({});
    server.resourceUpdated('test://watched-resource');
    expect(subscriber.session.notifications).toHaveLength(1);
    expect((await subscriber.fail('resources/subscribe', {})).code).toBe(ErrorCode.InvalidParams);
  });

  it('L-S31/L-S5: list_changed goes to initialized sessions only', async () => {
    const server = legacyServer();
    const ready = new LegacyClient(server);
    const pending = new LegacyClient(server);
    await ready.connect();
    await pending.connect({ initialized: false });
    server.tool({ name: 'later', description: 'Added later', handler: () => ({ content: [] }) });
    server.removePrompt('greet');
    server.listChanged('resources');
    expect(ready.session.notifications.map((n) => n.method)).toEqual([
      'notifications/tools/list_changed',
      'notifications/prompts/list_changed',
      'notifications/resources/list_changed',
    ]);
    expect(ready.session.notifications[0]).toStrictEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
    });
    expect(pending.session.notifications).toEqual([]);
  });

  it.each(['server/discover', 'subscriptions/listen', 'tasks/update'])(
    '2026-only methods are -32601 in a legacy session: %s',
    async (method) => {
      const client = new LegacyClient(legacyServer());
      await client.connect();
      expect((await client.fail(method, { taskId: 'x' })).code).toBe(ErrorCode.MethodNotFound);
    },
  );

  it.each(['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel'])(
    'L-T25: the experimental task methods are -32601 in a session older than 2025-11-25: %s',
    async (method) => {
      const client = new LegacyClient(legacyServer());
      await client.connect({ version: '2025-06-18' });
      expect((await client.fail(method, { taskId: 'x' })).code).toBe(ErrorCode.MethodNotFound);
    },
  );
});

describe('legacy results', () => {
  it('L-S34: list, read, get and complete results carry no resultType, _meta stamp or cache hints', async () => {
    const client = new LegacyClient(legacyServer());
    await client.connect();
    const results = [
      await client.ok('tools/list'),
      await client.ok('prompts/list'),
      await client.ok('resources/list'),
      await client.ok('resources/templates/list'),
      await client.ok('resources/read', { uri: 'test://static' }),
      await client.ok('prompts/get', { name: 'greet', arguments: { who: 'you' } }),
      await client.ok('completion/complete', {
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'who', value: 'w' },
      }),
      await client.ok('tools/call', { name: 'echo' }),
    ];
    for (const result of results) {
      for (const key of MODERN_KEYS) expect(result).not.toHaveProperty(key);
    }
    expect((results[0]?.tools as { name: string }[] | undefined)?.map((t) => t.name)).toEqual(['echo', 'task_only']);
    expect(results[4]).toStrictEqual({
      contents: [{ uri: 'test://static', mimeType: 'text/plain', text: 'static text' }],
    });
    expect(results[6]).toStrictEqual({ completion: { values: ['world', 'web'], total: 2, hasMore: false } });
    expect(results[7]).toStrictEqual({ content: [{ type: 'text', text: 'hi' }] });
  });

  it('L-S33: unknown resource -32002 with data.uri; unknown tool and prompt -32602', async () => {
    const client = new LegacyClient(legacyServer());
    await client.connect();
    expect(await client.fail('resources/read', { uri: 'test://missing' })).toStrictEqual({
      code: -32002,
      message: 'Resource not found: test://missing',
      data: { uri: 'test://missing' },
    });
    expect((await client.fail('tools/call', { name: 'nope' })).code).toBe(ErrorCode.InvalidParams);
    expect((await client.fail('prompts/get', { name: 'nope' })).code).toBe(ErrorCode.InvalidParams);
    expect((await client.fail('no/such/method')).code).toBe(ErrorCode.MethodNotFound);
  });

  it('L-T4/L-T25: a task-only tool is -32601 without a task; the 2026 Tasks extension never makes a task here', async () => {
    const client = new LegacyClient(legacyServer());
    await client.connect({ capabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } });
    expect((await client.fail('tools/call', { name: 'task_only' })).code).toBe(ErrorCode.MethodNotFound);
    expect(await client.ok('tools/call', { name: 'echo' })).toStrictEqual({ content: [{ type: 'text', text: 'hi' }] });
  });

  it('a 2026 request on a session object is served exactly as without the session', async () => {
    const server = legacyServer();
    const client = new LegacyClient(server);
    await client.connect();
    const message = request('tools/list', {}, { id: 'same' });
    const plain = await server.handle(message, fakeContext().context);
    const withSession = await server.handle(message, { ...fakeContext().context, session: client.session });
    expect(withSession).toStrictEqual(plain);
    expect(withSession).toMatchObject({ result: { resultType: 'complete', ttlMs: 0 } });
    const ping = await server.handle(request('ping'), { ...fakeContext().context, session: client.session });
    expect(ping).toMatchObject({ error: { code: ErrorCode.MethodNotFound } });
  });
});

describe('legacy session state lifetime', () => {
  it('drops the state when the session closes: no notifications, back to the 2026 path', async () => {
    const server = legacyServer();
    const client = new LegacyClient(server);
    await client.connect();
    await client.ok('resources/subscribe', { uri: 'test://static' });
    client.session.close();
    server.resourceUpdated('test://static');
    server.listChanged('tools');
    expect(client.session.notifications).toEqual([]);
    expect((await client.fail('tools/list')).code).toBe(ErrorCode.InvalidParams);
  });

  it('keeps at most maxLegacySessions states, forgetting the oldest', async () => {
    const server = legacyServer({ maxLegacySessions: 2 });
    const clients = [new LegacyClient(server), new LegacyClient(server), new LegacyClient(server)];
    for (const client of clients) await client.connect();
    expect((await clients[0]?.fail('tools/list'))?.code).toBe(ErrorCode.InvalidParams);
    expect(await clients[1]?.ok('tools/list')).toHaveProperty('tools');
    expect(await clients[2]?.ok('tools/list')).toHaveProperty('tools');
  });

  it('a closed server answers legacy requests with -32603', async () => {
    const server = legacyServer();
    const client = new LegacyClient(server);
    await client.connect();
    await server.close();
    expect((await client.fail('ping')).code).toBe(ErrorCode.InternalError);
  });
});
