import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isTaskHandle, McpClient } from '../src/index.js';
import { created, FakeTransport, polled, type Responder, textResult } from './fakeTransport.js';

const clientInfo = { name: 'test-client', version: '1.0.0' };

function setup(responder: Responder) {
  const transport = new FakeTransport(responder);
  return { transport, client: new McpClient({ transport, clientInfo }) };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('request() (the raw API)', () => {
  it('returns the task handle when the server turns tools/call into a task, so the task is never orphaned', async () => {
    const { transport, client } = setup((req) =>
      req.method === 'tools/call' ? created('working') : polled('completed', { result: textResult('done') }),
    );
    const result = await client.request('tools/call', { name: 'build', arguments: {} });
    expect(result).toMatchObject({ resultType: 'task', taskId: 't-1', status: 'working' });
    if (!isTaskHandle(result)) throw new Error('expected a task handle');
    // The caller owns the task: it can drive, poll or cancel it like any other.
    const resumed = client.resumeTask(result.taskId);
    await vi.runAllTimersAsync();
    await expect(resumed).resolves.toMatchObject({ content: [{ type: 'text', text: 'done' }] });
    expect(transport.calls('tools/call')).toHaveLength(1);
  });

  it('tells a task handle from a complete result, and never caches a task handle', async () => {
    const { transport, client } = setup((req) =>
      req.method === 'tools/call' ? created('working') : { resultType: 'complete', tools: [], ttlMs: 60_000 },
    );
    const listed = await client.request('tools/list');
    expect(isTaskHandle(listed)).toBe(false);
    await client.request('tools/call', { name: 'build' });
    await client.request('tools/call', { name: 'build' });
    expect(transport.calls('tools/call')).toHaveLength(2);
  });
});
