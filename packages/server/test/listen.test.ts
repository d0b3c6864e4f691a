import { META, type TransportNotification } from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServer } from '../src/index.js';
import { fixtureServer } from './fixture.js';
import { BASE_CAPS, EXT_CAPS, expectCreateTask, fakeContext, Loopback, request } from './harness.js';

let server: McpServer;
afterEach(async () => server?.close());

/** Opens a listen stream; returns its notifications, the pending response and a way to close it. */
function listen(
  notifications: Record<string, unknown>,
  options: { caps?: object; principal?: string; id?: number } = {},
) {
  const fake = fakeContext(options.principal === undefined ? {} : { principal: options.principal });
  const message = request(
    'subscriptions/listen',
    { notifications },
    { caps: options.caps ?? EXT_CAPS, id: options.id ?? 900 },
  );
  const response = server.handle(message, fake.context);
  return { seen: fake.notifications, response, close: fake.abort, id: message.id };
}

async function until(check: () => boolean) {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const subscriptionOf = (n: TransportNotification) =>
  (n.params?._meta as Record<string, unknown> | undefined)?.[META.subscriptionId];

describe('subscriptions/listen', () => {
  it('acks first with the honoured filter, tags everything with subscriptionId, ends with a result', async () => {
    server = fixtureServer();
    const stream = listen(
      { toolsListChanged: true, promptsListChanged: false, resourceSubscriptions: ['test://static-text'] },
      { id: 41 },
    );
    await until(() => stream.seen.length === 1);
    expect(stream.seen[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: {
        notifications: { toolsListChanged: true, resourceSubscriptions: ['test://static-text'] },
        _meta: { [META.subscriptionId]: 41 },
      },
    });
    server.tool({ name: 'late_tool', description: 'added later', handler: () => ({ content: [] }) });
    server.prompt({ name: 'late_prompt', handler: () => ({ messages: [] }) });
    server.resourceUpdated('test://static-text');
    server.resourceUpdated('test://other');
    expect(stream.seen.map((n) => n.method)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/tools/list_changed',
      'notifications/resources/updated',
    ]);
    expect(stream.seen.every((n) => subscriptionOf(n) === 41)).toBe(true);
    stream.close();
    expect(await stream.response).toMatchObject({
      id: 41,
      result: { resultType: 'complete', _meta: { [META.subscriptionId]: 41 } },
    });
  });

  it('ends gracefully with the listen result on server close', async () => {
    server = fixtureServer();
    const stream = listen({ promptsListChanged: true });
    await until(() => stream.seen.length === 1);
    await server.close();
    expect(await stream.response).toHaveProperty('result.resultType', 'complete');
  });

  it('serves many concurrent streams without a listener-leak warning, and ends them all on close', async () => {
    server = fixtureServer();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const streams = Array.from({ length: 25 }, (_, i) => listen({ promptsListChanged: true }, { id: 1000 + i }));
      await until(() => streams.every((stream) => stream.seen.length === 1));
      // Process warnings are emitted on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
      streams[0]?.close();
      expect(await streams[0]?.response).toHaveProperty('result.resultType', 'complete');
      await server.close();
      for (const stream of streams) expect(await stream.response).toHaveProperty('result.resultType', 'complete');
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('rejects a malformed filter with -32602', async () => {
    server = fixtureServer();
    expect(await listen({ taskIds: 'abc' }).response).toMatchObject({ error: { code: -32602 } });
    expect(await server.handle(request('subscriptions/listen', {}), fakeContext().context)).toMatchObject({
      error: { code: -32602 },
    });
  });

  it('S33: taskIds without the Tasks extension is -32021', async () => {
    server = fixtureServer();
    const { response } = listen({ taskIds: ['x'] }, { caps: BASE_CAPS });
    expect(await response).toMatchObject({
      error: { code: -32021, data: { requiredCapabilities: { extensions: {} } } },
    });
  });

  it('S12/S34: the ack lists only the caller’s own known tasks', async () => {
    server = fixtureServer();
    const alice = new Loopback(server, { caps: EXT_CAPS, principal: 'alice' });
    const mine = expectCreateTask(await alice.call('slow_compute', { seconds: 60 }));
    const theirs = expectCreateTask(
      await new Loopback(server, { caps: EXT_CAPS, principal: 'bob' }).call('slow_compute', { seconds: 60 }),
    );
    const stream = listen({ taskIds: [mine, theirs, 'unknown'] }, { principal: 'alice' });
    await until(() => stream.seen.length >= 1);
    expect(stream.seen[0]?.params?.notifications).toEqual({ taskIds: [mine] });
    await new Loopback(server, { caps: EXT_CAPS, principal: 'bob' }).ok('tasks/cancel', { taskId: theirs });
    await alice.ok('tasks/cancel', { taskId: mine });
    await until(() => stream.seen.some((n) => n.params?.status === 'cancelled'));
    expect(stream.seen.filter((n) => n.method === 'notifications/tasks').every((n) => n.params?.taskId === mine)).toBe(
      true,
    );
    stream.close();
    await stream.response;
  });

  it('considers only the first maxTaskIdsPerListen distinct ids; the ack leaves the rest out', async () => {
    server = fixtureServer({ tasks: { maxTaskIdsPerListen: 2 } });
    const client = new Loopback(server, { caps: EXT_CAPS });
    const [a, b, c] = [
      expectCreateTask(await client.call('slow_compute', { seconds: 60 })),
      expectCreateTask(await client.call('slow_compute', { seconds: 60 })),
      expectCreateTask(await client.call('slow_compute', { seconds: 60 })),
    ];
    // A repeated id counts once: a and b are the first two distinct ids, c is past the limit.
    const stream = listen({ taskIds: [a, a, b, c] });
    await until(() => stream.seen.length >= 1);
    expect(stream.seen[0]?.params?.notifications).toEqual({ taskIds: [a, b] });
    await client.ok('tasks/cancel', { taskId: c });
    await client.ok('tasks/cancel', { taskId: b });
    await until(() => stream.seen.some((n) => n.params?.taskId === b && n.params?.status === 'cancelled'));
    expect(stream.seen.some((n) => n.params?.taskId === c)).toBe(false);
    stream.close();
    await stream.response;
  });

  it('by default considers 1,000 distinct ids: an owned task listed 1,001st is not acknowledged', async () => {
    server = fixtureServer();
    const client = new Loopback(server, { caps: EXT_CAPS });
    const mine = expectCreateTask(await client.call('slow_compute', { seconds: 60 }));
    const unknown = Array.from({ length: 1000 }, (_, i) => `unknown-${i}`);
    const stream = listen({ taskIds: [...unknown, mine] });
    await until(() => stream.seen.length >= 1);
    expect(stream.seen[0]?.params?.notifications).toEqual({ taskIds: [] });
    const late = listen({ taskIds: [...unknown.slice(1), mine] }, { id: 901 });
    await until(() => late.seen.length >= 1);
    expect(late.seen[0]?.params?.notifications).toEqual({ taskIds: [mine] });
    stream.close();
    late.close();
    await Promise.all([stream.response, late.response]);
  });

  it('S44/S32: when every acknowledged task expired the stream ends, so the client polls and learns -32602', async () => {
    server = fixtureServer({ tasks: { ttlMs: 300 } }); // the tasks must outlive the listen ack on a loaded machine
    const client = new Loopback(server, { caps: EXT_CAPS });
    const a = expectCreateTask(await client.call('slow_compute', { seconds: 60 }));
    const b = expectCreateTask(await client.call('slow_compute', { seconds: 60 }));
    const stream = listen({ taskIds: [a, b] });
    const result = await stream.response;
    expect(result).toHaveProperty('result.resultType', 'complete');
    expect(stream.seen[0]?.params?.notifications).toEqual({ taskIds: [a, b] });
    expect((await client.fail('tasks/get', { taskId: a })).code).toBe(-32602);
    expect((await client.fail('tasks/get', { taskId: b })).code).toBe(-32602);
  });

  it('S44: a stream with a list subscription stays open after its tasks expired', async () => {
    server = fixtureServer({ tasks: { ttlMs: 300 } }); // the tasks must outlive the listen ack on a loaded machine
    const client = new Loopback(server, { caps: EXT_CAPS });
    const taskId = expectCreateTask(await client.call('slow_compute', { seconds: 60 }));
    const stream = listen({ taskIds: [taskId], toolsListChanged: true });
    let ended = false;
    void stream.response.then(() => {
      ended = true;
    });
    const deadline = Date.now() + 5000;
    while (!('error' in (await client.send('tasks/get', { taskId })).response) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    server.removeTool('greet');
    await until(() => stream.seen.some((n) => n.method === 'notifications/tools/list_changed'));
    expect(ended).toBe(false);
    stream.close();
    await stream.response;
  });

  it('S32/S35/S36: every change sends the full DetailedTask equal to tasks/get, and no progress or log', async () => {
    server = fixtureServer();
    const client = new Loopback(server, { caps: EXT_CAPS });
    const created = await client.send(
      'tools/call',
      { name: 'confirm_delete', arguments: { filename: 'n.txt' } },
      {
        meta: { progressToken: 'p1', [META.logLevel]: 'debug' },
      },
    );
    expect(created.notifications).toEqual([]);
    const taskId = expectCreateTask(
      created.response && 'result' in created.response ? (created.response.result as Record<string, unknown>) : {},
    );
    const stream = listen({ taskIds: [taskId] }, { id: 77 });
    const inputNote = () =>
      stream.seen.find((n) => n.method === 'notifications/tasks' && n.params?.status === 'input_required');
    await until(() => inputNote() !== undefined);
    const { _meta, ...detailed } = inputNote()?.params ?? {};
    expect(_meta).toEqual({ [META.subscriptionId]: 77 });
    const { resultType: _rt, _meta: _m, ...polled } = await client.ok('tasks/get', { taskId });
    expect(detailed).toEqual(polled);
    expect(detailed).not.toHaveProperty('resultType');
    const [key] = Object.keys(polled.inputRequests as object) as [string];
    await client.ok('tasks/update', {
      taskId,
      inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
    });
    await until(() => stream.seen.some((n) => n.params?.status === 'completed'));
    const completed = stream.seen.find((n) => n.params?.status === 'completed');
    expect(completed?.params?.result).toMatchObject({ content: [{ text: 'deleted n.txt' }] });
    expect(stream.seen.some((n) => n.method === 'notifications/progress' || n.method === 'notifications/message')).toBe(
      false,
    );
    stream.close();
    await stream.response;
  });
});
