import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InMemoryTaskJournal, InvalidResponseError, McpClient, type McpClientOptions } from '../src/index.js';
import { created, elicit, FakeTransport, polled, type Responder, textResult } from './fakeTransport.js';

const clientInfo = { name: 'test-client', version: '1.0.0' };
const accept = async () => ({ action: 'accept' as const, content: { ok: true } });

function setup(responder: Responder, options: Partial<McpClientOptions> = {}) {
  const transport = new FakeTransport(responder);
  return { transport, client: new McpClient({ transport, clientInfo, handlers: { elicitation: accept }, ...options }) };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('startTool', () => {
  it('returns a direct CallToolResult as kind complete and journals nothing (C3)', async () => {
    const journal = new InMemoryTaskJournal();
    const { client } = setup(() => textResult('direct', true), { tasks: { journal } });
    await expect(client.startTool('t', { a: 1 })).resolves.toEqual({
      kind: 'complete',
      result: { resultType: 'complete', content: [{ type: 'text', text: 'direct' }], isError: true },
    });
    expect(journal.list()).toEqual([]);
  });

  it('returns the CreateTaskResult without polling it, and journals it for a later resumeTask (C8)', async () => {
    const journal = new InMemoryTaskJournal();
    const { transport, client } = setup(
      (req) =>
        req.method === 'tools/call'
          ? created('working', { pollIntervalMs: 100 })
          : polled('completed', { result: textResult('later') }),
      { tasks: { journal } },
    );
    const started = await client.startTool('build', { target: 'web' });
    expect(started).toMatchObject({ kind: 'task', task: { resultType: 'task', taskId: 't-1', status: 'working' } });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(transport.calls('tasks/get')).toEqual([]);
    expect(journal.list()).toEqual([
      {
        taskId: 't-1',
        method: 'tools/call',
        name: 'build',
        arguments: { target: 'web' },
        recordedAt: '1970-01-01T00:00:00.000Z',
      },
    ]);
    const resumed = client.resumeTask('t-1');
    await vi.runAllTimersAsync();
    await expect(resumed).resolves.toMatchObject({ content: [{ text: 'later' }] });
    expect(journal.list()).toEqual([]);
  });

  it('answers MRTR rounds first, then returns the task the retry created (C22)', async () => {
    const { transport, client } = setup((_req, { index }) =>
      index === 0
        ? { resultType: 'input_required', inputRequests: { q: elicit('?') }, requestState: 'S' }
        : created('input_required', { inputRequests: { other: elicit('later?') } }),
    );
    const started = await client.startTool('t');
    expect(started).toMatchObject({ kind: 'task', task: { taskId: 't-1', status: 'input_required' } });
    expect(transport.calls('tools/call')[1]!.params).toMatchObject({
      requestState: 'S',
      inputResponses: { q: { action: 'accept' } },
    });
    // The task's own input requests are left for whoever follows the task (separate key space).
    expect(transport.calls('tasks/update')).toEqual([]);
  });

  it('rejects a malformed direct result as an invalid response', async () => {
    const { client } = setup(() => ({ resultType: 'complete', content: 'nope' }));
    await expect(client.startTool('t')).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('rejects a task result when the client did not declare the extension (C4)', async () => {
    const { client } = setup(() => created(), { tasks: false });
    await expect(client.startTool('t')).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('callTool drives the task startTool would return, seeded with it (one MRTR path, C23)', async () => {
    const journal = new InMemoryTaskJournal();
    const { transport, client } = setup(
      (req) =>
        req.method === 'tools/call' ? created('completed') : polled('completed', { result: textResult('done') }),
      { tasks: { journal } },
    );
    const statuses: string[] = [];
    const call = client.callTool('t', {}, { onStatus: (t) => statuses.push(t.status) });
    await vi.runAllTimersAsync();
    await expect(call).resolves.toMatchObject({ content: [{ text: 'done' }] });
    // The seed and the fetched payload are the same state: onStatus hears it once.
    expect(statuses).toEqual(['completed']);
    expect(transport.calls('tasks/get')).toHaveLength(1);
    expect(journal.list()).toEqual([]);
  });
});
