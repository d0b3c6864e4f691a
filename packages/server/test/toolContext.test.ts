import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../src/index.js';
import { deferred, EXT_CAPS, expectCreateTask, Loopback, request } from './harness.js';

let server: McpServer;
afterEach(async () => server?.close());

describe('tool context', () => {
  it('works destructured: its methods and signal need no `this`', async () => {
    server = new McpServer({ serverInfo: { name: 'ctx', version: '1.0.0' } });
    const gate = deferred();
    server.tool({
      name: 'destructured',
      description: 'Uses its context destructured',
      taskSupport: 'required',
      handler: async (_args, { setStatus, elicit, canRequest, signal, taskId, mode }) => {
        await setStatus('asking');
        const answer = await elicit({
          mode: 'form',
          message: 'Name?',
          requestedSchema: { type: 'object', properties: {} },
        });
        await gate.promise;
        const state = `${mode} ${typeof taskId} ${signal.aborted} ${canRequest('elicitation')} ${answer.action}`;
        return { content: [{ type: 'text', text: state }] };
      },
    });
    const client = new Loopback(server, { caps: EXT_CAPS });
    const taskId = expectCreateTask(await client.call('destructured'));
    const asking = await client.waitForTask(taskId, (task) => task.status === 'input_required');
    expect(asking.statusMessage).toBe('asking');
    const [key] = Object.keys(asking.inputRequests as object);
    await client.ok('tasks/update', { taskId, inputResponses: { [key as string]: { action: 'decline' } } });
    gate.resolve();
    const done = await client.waitForTerminal(taskId);
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'task string false true decline' }] });
  });

  it('onAbort reaches a waiting task tool on tasks/cancel; offAbort stops a listener', async () => {
    server = new McpServer({ serverInfo: { name: 'ctx', version: '1.0.0' } });
    const reasons: unknown[] = [];
    const removed: unknown[] = [];
    server.tool({
      name: 'waits',
      description: 'Waits until cancelled',
      taskSupport: 'required',
      handler: (_args, ctx) =>
        new Promise((_resolve, reject) => {
          const early = (reason: unknown) => removed.push(reason);
          ctx.onAbort(early);
          ctx.offAbort(early);
          ctx.onAbort((reason) => {
            reasons.push(reason);
            reject(reason);
          });
        }),
    });
    const client = new Loopback(server, { caps: EXT_CAPS });
    const taskId = expectCreateTask(await client.call('waits'));
    await client.ok('tasks/cancel', { taskId });
    await client.waitForTerminal(taskId);
    await expect.poll(() => reasons.length).toBe(1);
    expect(reasons[0]).toMatchObject({ name: 'TaskAbortError', kind: 'cancelled' });
    expect(removed).toEqual([]);
  });

  it('onAbort in a synchronous call follows the request signal, which stays the same object', async () => {
    server = new McpServer({ serverInfo: { name: 'ctx', version: '1.0.0' } });
    const started = deferred<{ signal: AbortSignal }>();
    const reasons: unknown[] = [];
    server.tool({
      name: 'sync-wait',
      description: 'Waits for its request to go away',
      handler: (_args, ctx) =>
        new Promise((resolve) => {
          const before = ctx.signal;
          ctx.onAbort((reason) => {
            reasons.push(reason);
            resolve({ content: [{ type: 'text', text: String(ctx.signal === before) }] });
          });
          started.resolve({ signal: before });
        }),
    });
    const controller = new AbortController();
    const call = server.handle(request('tools/call', { name: 'sync-wait', arguments: {} }), {
      principal: undefined,
      signal: controller.signal,
      notify: () => undefined,
    });
    const { signal } = await started.promise;
    expect(signal).toBe(controller.signal);
    controller.abort('client left');
    const response = await call;
    expect(reasons).toEqual(['client left']);
    expect(response).toMatchObject({ result: { content: [{ text: 'true' }] } });
  });

  it('a synchronous call on a signal shared by many requests leaves nothing on it once it answered', async () => {
    server = new McpServer({ serverInfo: { name: 'ctx', version: '1.0.0' } });
    let heard = 0;
    const listen = (ctx: { onAbort(listener: () => void): void }) => ctx.onAbort(() => heard++);
    server.tool({
      name: 'listens',
      description: 'Listens for an abort (in collectInput too), then answers at once',
      collectInput: (_args, ctx) => {
        listen(ctx);
        return undefined;
      },
      handler: (_args, ctx) => {
        listen(ctx);
        return { content: [{ type: 'text', text: 'done' }] };
      },
    });
    server.prompt({
      name: 'listens',
      handler: (_args, ctx) => {
        listen(ctx);
        return { messages: [] };
      },
    });
    // A transport may hand every request its connection's signal (aborted when the connection closes).
    const connection = new AbortController();
    const context = { principal: undefined, signal: connection.signal, notify: () => undefined };
    for (let i = 0; i < 3; i++) {
      const response = await server.handle(request('tools/call', { name: 'listens', arguments: {} }), context);
      expect(response).toMatchObject({ result: { content: [{ text: 'done' }] } });
      expect(await server.handle(request('prompts/get', { name: 'listens' }), context)).toMatchObject({
        result: { messages: [] },
      });
    }
    connection.abort('connection closed');
    // The calls ended before the abort, so no listener of theirs may run: each was removed from the signal.
    expect(heard).toBe(0);
  });

  it('a waiting task shares one deep-frozen _meta with the other tasks of equal _meta', async () => {
    server = new McpServer({ serverInfo: { name: 'ctx', version: '1.0.0' } });
    const metas: Array<{ meta: unknown; capabilities: unknown }> = [];
    const gate = deferred();
    server.tool({
      name: 'remembers',
      description: 'Reads its _meta after its task was answered',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        await gate.promise;
        metas.push({ meta: ctx.meta, capabilities: ctx.clientCapabilities });
        return { content: [{ type: 'text', text: 'ok' }] };
      },
    });
    const client = new Loopback(server, { caps: EXT_CAPS });
    const first = expectCreateTask(await client.call('remembers'));
    const second = expectCreateTask(await client.call('remembers'));
    gate.resolve();
    await client.waitForTerminal(first);
    await client.waitForTerminal(second);
    const [a, b] = metas;
    expect(a?.meta).toBe(b?.meta);
    expect(Object.isFrozen(a?.meta)).toBe(true);
    expect(a?.capabilities).toEqual(EXT_CAPS);
    expect(a?.capabilities).toBe(b?.capabilities);
    expect(Object.isFrozen(a?.capabilities)).toBe(true);
  });
});
