import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InMemoryTaskJournal, McpClient, type McpClientOptions, TaskNotFoundError } from '../src/index.js';
import { ack, created, elicit, FakeTransport, polled, type Responder, textResult } from './fakeTransport.js';

const clientInfo = { name: 'test-client', version: '1.0.0' };

function setup(responder: Responder, options: Partial<McpClientOptions> = {}) {
  const transport = new FakeTransport(responder);
  return { transport, client: new McpClient({ transport, clientInfo, ...options }) };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('abort (C16, C17)', () => {
  it('before a task exists, cancels the in-flight tools/call and sends no tasks/cancel', async () => {
    const { transport, client } = setup(() => new Promise(() => undefined));
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal });
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new Error('user left'));
    await expect(call).rejects.toThrow('user left');
    expect(transport.sentNotifications).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: transport.calls('tools/call')[0]!.id },
      },
    ]);
    expect(transport.calls('tasks/cancel')).toHaveLength(0);
  });

  it('C16, C17: while polling, sends tasks/cancel (never notifications/cancelled for the tools/call), rejects and polls no more', async () => {
    const journal = new InMemoryTaskJournal();
    const { transport, client } = setup(
      (req) =>
        req.method === 'tools/call'
          ? created('working', { pollIntervalMs: 1000 })
          : req.method === 'tasks/get'
            ? polled('working')
            : ack,
      { tasks: { journal } },
    );
    const controller = new AbortController();
    const call = client.callTool('slow', {}, { signal: controller.signal });
    call.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(2500);
    expect(transport.calls('tasks/get')).toHaveLength(2);
    controller.abort(new Error('stop'));
    await expect(call).rejects.toThrow('stop');
    await vi.advanceTimersByTimeAsync(0);
    expect(transport.calls('tasks/cancel').map((m) => m.params?.taskId)).toEqual(['t-1']);
    const toolsCallId = transport.calls('tools/call')[0]!.id;
    expect(transport.sentNotifications.filter((n) => n.params?.requestId === toolsCallId)).toEqual([]);
    expect(journal.list()).toEqual([]);
    // No polling after the cancel (C17: the client may drop its state at once).
    await vi.advanceTimersByTimeAsync(10_000);
    expect(transport.calls('tasks/get')).toHaveLength(2);
  });

  it('while an input handler is waiting, rejects and cancels the task', async () => {
    const { transport, client } = setup(
      (req) =>
        req.method === 'tools/call'
          ? created('input_required')
          : req.method === 'tasks/get'
            ? polled('input_required', { inputRequests: { a: elicit('a') } })
            : ack,
      {
        handlers: {
          elicitation: (_params, { signal }) =>
            new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
        },
      },
    );
    const controller = new AbortController();
    const call = client.callTool('t', {}, { signal: controller.signal });
    call.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new Error('closed dialog'));
    await expect(call).rejects.toThrow('closed dialog');
    await vi.advanceTimersByTimeAsync(0);
    expect(transport.calls('tasks/update')).toHaveLength(0);
    expect(transport.calls('tasks/cancel')).toHaveLength(1);
  });

  it('with a signal already aborted when the task arrives, cancels it at once', async () => {
    const controller = new AbortController();
    const { transport, client } = setup((req) => {
      if (req.method === 'tools/call') {
        controller.abort(new Error('too late'));
        return created();
      }
      return ack;
    });
    const call = client.callTool('t', {}, { signal: controller.signal });
    await expect(call).rejects.toThrow();
    await vi.advanceTimersByTimeAsync(0);
    expect(transport.calls('tasks/get')).toHaveLength(0);
  });
});

describe('journal and resumption (C8)', () => {
  it('records the task with its call on creation and removes it at a terminal status', async () => {
    const journal = new InMemoryTaskJournal();
    let snapshot: unknown;
    const { client } = setup(
      (req) => {
        if (req.method === 'tools/call') return created();
        snapshot = journal.list();
        return polled('completed', { result: textResult('ok') });
      },
      { tasks: { journal } },
    );
    const call = client.callTool('build', { target: 'x' });
    await vi.runAllTimersAsync();
    await call;
    expect(snapshot).toEqual([
      {
        taskId: 't-1',
        method: 'tools/call',
        name: 'build',
        arguments: { target: 'x' },
        recordedAt: new Date(0).toISOString(),
      },
    ]);
    expect(journal.list()).toEqual([]);
  });

  it('keeps the entry when the transport dies, and a new client resumes the task from the journal', async () => {
    const journal = new InMemoryTaskJournal();
    const first = setup(
      (req) => {
        if (req.method === 'tools/call') return created();
        throw new Error('process crashed');
      },
      { tasks: { journal } },
    );
    const call = first.client.callTool('build', { target: 'x' });
    call.catch(() => undefined);
    await vi.runAllTimersAsync();
    await expect(call).rejects.toThrow('process crashed');
    expect(journal.list().map((e) => e.taskId)).toEqual(['t-1']);

    const second = setup(
      (req) => (req.method === 'tasks/get' ? polled('completed', { result: textResult('resumed') }) : ack),
      {
        tasks: { journal },
      },
    );
    const pending = journal.list();
    const results = pending.map((entry) => second.client.resumeTask(entry.taskId));
    await vi.runAllTimersAsync();
    await expect(Promise.all(results)).resolves.toMatchObject([{ content: [{ text: 'resumed' }] }]);
    expect(second.transport.times('tasks/get')).toEqual([Date.now()]);
    expect(journal.list()).toEqual([]);
  });

  it('drops the entry when the server no longer knows the task (C20)', async () => {
    const journal = new InMemoryTaskJournal();
    journal.add({ taskId: 'gone', method: 'tools/call', name: 'x', recordedAt: new Date(0).toISOString() });
    const { client } = setup(() => ({ error: { code: -32602, message: 'Task not found' } }), { tasks: { journal } });
    const call = client.resumeTask('gone');
    call.catch(() => undefined);
    await vi.runAllTimersAsync();
    await expect(call).rejects.toBeInstanceOf(TaskNotFoundError);
    expect(journal.list()).toEqual([]);
  });
});

describe('raw task API', () => {
  it('callToolRaw returns the task handle without polling; getTask/updateTask/cancelTask drive it', async () => {
    const { transport, client } = setup((req) => {
      if (req.method === 'tools/call') return created();
      if (req.method === 'tasks/get') return polled('input_required', { inputRequests: { a: elicit('a') } });
      return ack;
    });
    const raw = await client.callToolRaw('t');
    expect(raw).toMatchObject({ kind: 'task', task: { taskId: 't-1', status: 'working' } });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(transport.calls('tasks/get')).toHaveLength(0);
    const state = await client.getTask('t-1');
    expect(state).toMatchObject({ status: 'input_required', inputRequests: { a: { method: 'elicitation/create' } } });
    await client.updateTask('t-1', { a: { action: 'decline' } });
    await client.cancelTask('t-1');
    expect(transport.calls('tasks/update')[0]!.params).toMatchObject({
      taskId: 't-1',
      inputResponses: { a: { action: 'decline' } },
    });
    expect(transport.calls('tasks/cancel')[0]!.params).toMatchObject({ taskId: 't-1' });
  });

  it('callToolRaw passes inputResponses and requestState through for an application-driven MRTR retry', async () => {
    const { transport, client } = setup((_req, { index }) =>
      index === 0
        ? { resultType: 'input_required', inputRequests: { k: elicit('k') }, requestState: 'S' }
        : textResult('ok'),
    );
    const first = await client.callToolRaw('t');
    expect(first).toMatchObject({ kind: 'input_required', result: { requestState: 'S' } });
    const second = await client.callToolRaw(
      't',
      {},
      { inputResponses: { k: { action: 'accept', content: {} } }, requestState: 'S' },
    );
    expect(second).toMatchObject({ kind: 'complete', result: { content: [{ text: 'ok' }] } });
    expect(transport.calls('tools/call')[1]!.params).toMatchObject({
      requestState: 'S',
      inputResponses: { k: { action: 'accept' } },
    });
  });
});
