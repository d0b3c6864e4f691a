import { afterEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { createLogger } from '../src/logger.js';
import { type StartedToolServer, startToolServer } from '../src/startToolServer.js';

const logger = createLogger('silent');
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

let started: StartedToolServer | undefined;
afterEach(async () => {
  await started?.stop();
  started = undefined;
});

function post(url: string, method: string, params: object, headers: Record<string, string> = {}) {
  const name = (params as { name?: string }).name;
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: { ...params, _meta: { ...META, ...('_meta' in params ? (params._meta as object) : {}) } },
    }),
  });
}

describe('startToolServer over Streamable HTTP', () => {
  it('logs its connection caps at start: the total below the file-descriptor limit, and the per-client cap', async () => {
    const lines: string[] = [];
    const destination = { write: (line: string) => void lines.push(line) };
    started = await startToolServer(
      { transport: 'http', host: '127.0.0.1', port: 0, tools: 'conformance', tokens: [] },
      createLogger('info', destination),
    );
    const messages = lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
    const caps = messages.find((message) => message.startsWith('http: at most'));
    expect(caps).toMatch(
      /^http: at most \d+ connections in total \(file-descriptor limit (\d+|unknown)\), 256 per client/,
    );
    const [, total, limit] = /at most (\d+) .*limit (\d+|unknown)/.exec(caps ?? '') ?? [];
    if (limit !== 'unknown') expect(Number(total)).toBeLessThan(Number(limit));
  });

  it('requires the bearer token when one is configured', async () => {
    started = await startToolServer(
      { transport: 'http', host: '127.0.0.1', port: 0, tools: 'conformance', tokens: ['secret-1'] },
      logger,
    );
    const url = started.url ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect((await post(url, 'server/discover', {})).status).toBe(401);
    expect((await post(url, 'server/discover', {}, { authorization: 'Bearer wrong' })).status).toBe(401);
    const ok = await post(url, 'server/discover', {}, { authorization: 'Bearer secret-1' });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { result: { resultType: string } }).result.resultType).toBe('complete');
  });

  it('binds tasks to the token that created them when several tokens are configured', async () => {
    started = await startToolServer(
      { transport: 'http', host: '127.0.0.1', port: 0, tools: 'conformance', tokens: ['alice-1', 'bob-2'] },
      logger,
    );
    const url = started.url ?? '';
    const taskMeta = {
      ...META,
      'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    };
    const created = await post(
      url,
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 60 }, _meta: taskMeta },
      { authorization: 'Bearer alice-1' },
    );
    const { taskId } = ((await created.json()) as { result: { taskId: string } }).result;
    const get = (token: string) =>
      post(url, 'tasks/get', { taskId, _meta: taskMeta }, { authorization: `Bearer ${token}`, 'mcp-name': taskId });
    const bob = await get('bob-2');
    expect(bob.status).toBe(400);
    expect(await bob.json()).toMatchObject({ error: { code: -32602 } });
    const alice = await get('alice-1');
    expect(alice.status).toBe(200);
    expect(await alice.json()).toMatchObject({ result: { taskId, status: 'working' } });
    expect((await post(url, 'server/discover', {}, { authorization: 'Bearer carol' })).status).toBe(401);
  });

  it('answers tasks/update with wrong keys or shapes cleanly (400/-32602 or ignored); the task completes on a correct answer', async () => {
    started = await startToolServer(
      { transport: 'http', host: '127.0.0.1', port: 0, tools: 'conformance', tokens: [] },
      logger,
    );
    const url = started.url ?? '';
    const _meta = {
      ...META,
      'io.modelcontextprotocol/clientCapabilities': {
        elicitation: {},
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      },
    };
    const created = await post(url, 'tools/call', { name: 'confirm_delete', arguments: { filename: 'a' }, _meta });
    const { taskId } = ((await created.json()) as { result: { taskId: string } }).result;
    const task = async () => {
      const res = await post(url, 'tasks/get', { taskId, _meta }, { 'mcp-name': taskId });
      return ((await res.json()) as { result: { status: string; inputRequests?: object; result?: unknown } }).result;
    };
    await vi.waitFor(async () => expect((await task()).status).toBe('input_required'));
    const [key] = Object.keys((await task()).inputRequests ?? {}) as [string];
    const update = (inputResponses: unknown) =>
      post(url, 'tasks/update', { taskId, inputResponses, _meta }, { 'mcp-name': taskId });
    const wrong: [unknown, number][] = [
      ['x', 400],
      [null, 400],
      [[], 400],
      [{ [key]: 5 }, 400],
      [{ [key]: { action: 'bogus' } }, 400],
      [{ [key]: { action: 'accept', content: 'yes' } }, 400],
      // Content that does not match the requested form (confirm must be a boolean, and is required).
      [{ [key]: { action: 'accept', content: { confirm: 'yes' } } }, 400],
      [{ [key]: { action: 'accept', content: {} } }, 400],
      [{ [key]: { action: 'accept' } }, 400],
      // Keys the task never issued are ignored.
      [{ nope: { action: 'accept', content: { confirm: true } } }, 200],
      [{ toString: 5, constructor: {}, ['__proto__']: { action: 'accept' } }, 200],
    ];
    for (const [inputResponses, status] of wrong) {
      const res = await update(inputResponses);
      expect(res.status, JSON.stringify(inputResponses)).toBe(status);
      const body = (await res.json()) as { error?: { code: number } };
      if (status === 400) expect(body.error?.code, JSON.stringify(inputResponses)).toBe(-32602);
    }
    expect((await task()).status).toBe('input_required');
    expect((await update({ [key]: { action: 'accept', content: { confirm: true } } })).status).toBe(200);
    await vi.waitFor(async () => expect(await task()).toMatchObject({ status: 'completed' }));
    expect(JSON.stringify((await task()).result)).toContain('deleted a');
  });

  it('streams progress as SSE events before the result on the same response', async () => {
    started = await startToolServer(
      { transport: 'http', host: '127.0.0.1', port: 0, tools: 'conformance', tokens: [] },
      logger,
    );
    const response = await post(started.url ?? '', 'tools/call', {
      name: 'test_tool_with_progress',
      arguments: {},
      _meta: { progressToken: 'progress-test-1' },
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { method?: string; params?: { progress: number }; result?: object });
    expect(events.filter((e) => e.method === 'notifications/progress').map((e) => e.params?.progress)).toEqual([
      0, 50, 100,
    ]);
    expect(events.at(-1)?.result).toBeDefined();
  });
});

describe('startToolServer over WebSocket', () => {
  function connect(url: string, token?: string) {
    return new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(
        url,
        'mcp',
        token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } },
      );
      socket.once('open', () => resolve(socket));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      socket.once('error', reject);
    });
  }

  it('refuses an upgrade without the token and serves discover with it', async () => {
    started = await startToolServer(
      { transport: 'ws', host: '127.0.0.1', port: 0, tools: 'demo', tokens: ['tok'] },
      logger,
    );
    const url = started.url ?? '';
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/mcp$/);
    await expect(connect(url)).rejects.toThrow('HTTP 401');
    const socket = await connect(url, 'tok');
    try {
      const reply = new Promise<{ id: number; result: { resultType: string } }>((resolve) =>
        socket.once('message', (data) => resolve(JSON.parse(String(data)))),
      );
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'server/discover', params: { _meta: META } }));
      expect(await reply).toMatchObject({ id: 7, result: { resultType: 'complete' } });
    } finally {
      socket.close();
    }
  });
});
