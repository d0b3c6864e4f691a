/**
 * A listening client shares one `subscriptions/listen` stream among all the tasks it drives, counted where the
 * streams are served: the server's log of listen requests still awaiting their response.
 */
import { describe, expect, it, vi } from 'vitest';
import { createHarness, type Harness, registerGated } from './harness.js';

/** Listen requests the server is serving now (a listen answers only when its stream ends). */
function openStreams(h: Harness) {
  return h.sent('subscriptions/listen').filter((entry) => entry.response === undefined);
}

/** The task ids the acknowledgement of a listen request agreed to. */
function acknowledged(entry: ReturnType<typeof openStreams>[number]): unknown[] {
  const ack = entry.notifications.find((n) => n.method === 'notifications/subscriptions/acknowledged');
  return ((ack?.params?.notifications as { taskIds?: unknown[] } | undefined)?.taskIds ?? []) as unknown[];
}

describe('one listen stream per client', () => {
  it('C21: 50 concurrent driven tasks are observed through one stream, closed once they are done', async () => {
    // Hour-long polls: only notifications can finish these calls.
    const h = createHarness({ tasks: { pollIntervalMs: 3_600_000 } });
    const { release } = registerGated(h);
    const { client } = h.connect({ tasks: { listen: true, maxIntervalMs: 3_600_000 } });
    const calls = Array.from({ length: 50 }, (_, i) => client.callTool('gated', { i }));

    await vi.waitFor(() => {
      const open = openStreams(h);
      expect(open).toHaveLength(1);
      expect(acknowledged(open[0]!)).toHaveLength(50);
    });
    // Joins are batched: far fewer listen requests than tasks, and the replaced ones are closed.
    expect(h.sent('subscriptions/listen').length).toBeLessThan(10);
    release.resolve();
    const results = await Promise.all(calls);
    expect(results.map((r) => r.content)).toEqual(
      Array.from({ length: 50 }, (_, i) => [{ type: 'text', text: `done {"i":${i}}` }]),
    );
    // Every task was live before it finished, and the server sent each one's state after the ack: no polling.
    expect(h.sent('tasks/get')).toHaveLength(0);
    await vi.waitFor(() => expect(openStreams(h)).toHaveLength(0));
  });

  it('C21: splits the tasks over as few streams as maxTaskIdsPerStream allows', async () => {
    const h = createHarness({ tasks: { pollIntervalMs: 3_600_000 } });
    const { release } = registerGated(h);
    const { client } = h.connect({ tasks: { listen: { maxTaskIdsPerStream: 10 }, maxIntervalMs: 3_600_000 } });
    const calls = Array.from({ length: 25 }, (_, i) => client.callTool('gated', { i }));

    await vi.waitFor(() => {
      const open = openStreams(h);
      expect(open.map((entry) => acknowledged(entry).length).sort()).toEqual([10, 10, 5]);
    });
    release.resolve();
    await Promise.all(calls);
    await vi.waitFor(() => expect(openStreams(h)).toHaveLength(0));
  });
});
