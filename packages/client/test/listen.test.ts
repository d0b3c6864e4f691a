import { META, type TransportNotification, type TransportRequest } from '@mcp-tasks/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../src/index.js';
import { ack, created, FakeTransport, polled, textResult } from './fakeTransport.js';

const clientInfo = { name: 'test-client', version: '1.0.0' };

/**
 * A server whose task goes working -> working -> completed at t = 1000, 2000, 3000 (fake clock). tasks/get reads
 * the state at the time asked; the listen stream pushes each change, acking `agreed` task ids, and drops at
 * `dropAt` if given.
 */
function server(agreed: string[], dropAt?: number) {
  const timeline: [number, Record<string, unknown>][] = [
    [0, polled('working', { pollIntervalMs: 400 })],
    [1000, polled('working', { pollIntervalMs: 400, statusMessage: 'half way' })],
    [3000, polled('completed', { pollIntervalMs: 400, result: textResult('done') })],
  ];
  const t0 = Date.now();
  const stateAt = (t: number) => [...timeline].reverse().find(([at]) => at <= t - t0)![1];
  return new FakeTransport((req: TransportRequest, { notify, signal }) => {
    if (req.method === 'tools/call') return created('working', { pollIntervalMs: 400 });
    if (req.method === 'tasks/get') return stateAt(Date.now());
    if (req.method !== 'subscriptions/listen') return ack;
    const meta = { [META.subscriptionId]: req.id };
    notify({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: meta, notifications: { taskIds: agreed } },
    });
    for (const [at, state] of timeline.slice(1)) {
      if (dropAt !== undefined && at >= dropAt) break;
      const { resultType: _r, ...task } = state;
      setTimeout(() => {
        // Noise the client must ignore: another subscription's notification, and another task.
        notify({
          jsonrpc: '2.0',
          method: 'notifications/tasks',
          params: { ...task, _meta: { [META.subscriptionId]: 'other' } },
        });
        notify({ jsonrpc: '2.0', method: 'notifications/tasks', params: { ...task, taskId: 't-2', _meta: meta } });
        notify({
          jsonrpc: '2.0',
          method: 'notifications/tasks',
          params: { ...task, _meta: meta },
        } as TransportNotification);
      }, at);
    }
    return new Promise((resolve, reject) => {
      if (dropAt !== undefined) setTimeout(() => reject(new Error('stream dropped')), dropAt);
      signal?.addEventListener('abort', () => resolve(ack));
    });
  });
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

async function run(transport: FakeTransport, listen: boolean) {
  const client = new McpClient({ transport, clientInfo, tasks: { listen, maxIntervalMs: 10_000 } });
  const seen: unknown[] = [];
  const call = client.callTool('t', {}, { onStatus: (t) => seen.push([t.status, t.statusMessage]) });
  await vi.runAllTimersAsync();
  return { result: await call, seen };
}

describe('task notifications via subscriptions/listen (C21)', () => {
  it('takes states from notifications/tasks, polling only once (the poll due when the stream became live)', async () => {
    const transport = server(['t-1']);
    const { result } = await run(transport, true);
    expect(result).toMatchObject({ content: [{ text: 'done' }] });
    const listen = transport.calls('subscriptions/listen')[0]!;
    expect(listen.params).toMatchObject({ notifications: { taskIds: ['t-1'] } });
    // The server pushes nothing until t = 1000: the poll due at the seed's pollIntervalMs is the catch-up.
    expect(transport.times('tasks/get')).toEqual([400]);
    // The stream is closed once the task is terminal.
    expect(transport.requests.find((r) => r.message.method === 'subscriptions/listen')!.signal!.aborted).toBe(true);
  });

  it('observes the same states through notifications as through polling', async () => {
    const polling = await run(server([]), false);
    const listening = await run(server(['t-1']), true);
    const distinct = (xs: unknown[]) => xs.filter((x, i) => i === 0 || JSON.stringify(x) !== JSON.stringify(xs[i - 1]));
    expect(distinct(listening.seen)).toEqual(distinct(polling.seen));
    expect(distinct(polling.seen)).toEqual([
      ['working', undefined],
      ['working', 'half way'],
      ['completed', undefined],
    ]);
  });

  it('polls when the ack does not include the task', async () => {
    const transport = server([]);
    await run(transport, true);
    expect(transport.calls('tasks/get').length).toBeGreaterThan(5);
  });

  it('polls at once when the stream drops, then listens again', async () => {
    // Every listen stream of this server drops 2 s after it opens; the task completes at t = 3000.
    const transport = server(['t-1'], 2000);
    const { result } = await run(transport, true);
    expect(result).toMatchObject({ content: [{ text: 'done' }] });
    expect(transport.times('subscriptions/listen')).toEqual([0, 2000, 4000]);
    // The catch-up poll, then one poll at each drop: the second finds the task completed.
    expect(transport.times('tasks/get')).toEqual([400, 2000, 4000]);
  });
});
