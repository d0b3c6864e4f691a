import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { McpClient, taskStatusStream } from '../src/index.js';
import { ack, created, FakeTransport, polled, textResult } from './fakeTransport.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('taskStatusStream', () => {
  it('yields every observed state of a call in order and ends at the terminal one', async () => {
    let polls = 0;
    const transport = new FakeTransport((req) => {
      if (req.method === 'tools/call') return created();
      if (req.method !== 'tasks/get') return ack;
      polls += 1;
      return polls < 3
        ? polled('working', { statusMessage: `step ${polls}` })
        : polled('completed', { result: textResult('ok') });
    });
    const client = new McpClient({ transport, clientInfo: { name: 'c', version: '1' } });
    const statuses = taskStatusStream();
    const call = client.callTool('t', {}, { onStatus: statuses.onStatus }).finally(statuses.end);
    const seen: string[] = [];
    const consumed = (async () => {
      for await (const task of statuses)
        seen.push(`${task.status}${task.statusMessage ? `:${task.statusMessage}` : ''}`);
    })();
    await vi.runAllTimersAsync();
    await call;
    await consumed;
    expect(seen).toEqual(['working', 'working:step 1', 'working:step 2', 'completed']);
  });

  it('ends on end() when the call fails before a terminal state', async () => {
    const statuses = taskStatusStream();
    statuses.onStatus({ taskId: 't', status: 'working', createdAt: '', lastUpdatedAt: '', ttlMs: null });
    statuses.end();
    statuses.onStatus({ taskId: 't', status: 'working', createdAt: '', lastUpdatedAt: '', ttlMs: null });
    const seen = [];
    for await (const task of statuses) seen.push(task.status);
    expect(seen).toEqual(['working']);
  });
});
