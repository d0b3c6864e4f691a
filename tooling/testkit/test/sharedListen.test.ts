/**
 * A listening client shares a few `subscriptions/listen` streams among all the tasks it drives (one with
 * `maxStreams: 1`), counted where the streams are served: the server's log of listen requests still awaiting their
 * response.
 */
import { McpClient } from '@mcp-tasks/client';
import type { MessageHandler } from '@mcp-tasks/protocol';
import { McpServer } from '@mcp-tasks/server';
import { HttpClientTransport } from '@mcp-tasks/transport-http/client';
import { listen } from '@mcp-tasks/transport-http/server';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createHarness, deferred, type Harness, registerGated, text, until } from './harness.js';

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
    const { client } = h.connect({ tasks: { listen: { maxStreams: 1 }, maxIntervalMs: 3_600_000 } });
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

  it('C21: with the defaults, tasks joining at different times share at most 8 streams, each task on one', async () => {
    const h = createHarness({ tasks: { pollIntervalMs: 3_600_000 } });
    const { release } = registerGated(h);
    const { client } = h.connect({ tasks: { listen: true, maxIntervalMs: 3_600_000 } });
    const calls: Promise<unknown>[] = [];
    // Twelve waves: each joins through a request of its own, so the client has to fold streams to stay at 8.
    for (let wave = 0; wave < 12; wave++) {
      const sent = h.sent('subscriptions/listen').length;
      for (let i = 0; i < 5; i++) calls.push(client.callTool('gated', { wave, i }));
      await vi.waitFor(() => expect(h.sent('subscriptions/listen').length).toBeGreaterThan(sent));
    }
    await vi.waitFor(() => {
      const open = openStreams(h);
      expect(open.length).toBeLessThanOrEqual(8);
      const live = open.flatMap(acknowledged);
      expect(new Set(live).size).toBe(60);
    });
    release.resolve();
    await Promise.all(calls);
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

describe('one listen stream per client over Streamable HTTP', () => {
  it('C21: 30 concurrent driven tasks hold one SSE listen stream open at the server', async () => {
    const server = new McpServer({
      serverInfo: { name: 'shared-listen', version: '0.0.0' },
      tasks: { pollIntervalMs: 3_600_000 },
    });
    const release = deferred();
    server.tool({
      name: 'gated',
      description: 'Finishes when the test says so',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        await until(release.promise, ctx.signal);
        return text('done');
      },
    });
    // Counts the listen requests the server is serving: each answers only when its stream ends.
    let open = 0;
    let requests = 0;
    let lastTaskIds = 0;
    let polls = 0;
    const counting: MessageHandler = (message, context) => {
      const answer = server.handle(message, context);
      const request = message as { method?: string; params?: { notifications?: { taskIds?: unknown[] } } };
      if (request.method === 'tasks/get') polls++;
      if (request.method !== 'subscriptions/listen') return answer;
      lastTaskIds = request.params?.notifications?.taskIds?.length ?? 0;
      requests++;
      open++;
      return answer.finally(() => open--);
    };
    const http = await listen({ handle: counting, toolParamHeaders: (name) => server.toolParamHeaders(name) });
    const client = new McpClient({
      transport: new HttpClientTransport({ url: http.url.href }),
      clientInfo: { name: 'testkit-client', version: '0.0.0' },
      tasks: { listen: { maxStreams: 1 }, maxIntervalMs: 3_600_000 },
    });
    onTestFinished(async () => {
      await client.close();
      await server.close();
      await http.close();
    });
    const seen = new Set<string>();
    const calls = Array.from({ length: 30 }, () =>
      client.callTool('gated', {}, { onStatus: (task) => seen.add(task.taskId) }),
    );
    await vi.waitFor(() => expect(seen.size).toBe(30));
    // One stream carries all 30: the client closes a replaced stream only once its successor is acknowledged.
    await vi.waitFor(
      () => {
        expect(lastTaskIds).toBe(30);
        expect(open).toBe(1);
      },
      { timeout: 5_000 },
    );
    expect(requests).toBeLessThan(10);
    release.resolve();
    // Hour-long polls: only notifications can finish these calls, and none was polled.
    await expect(Promise.all(calls)).resolves.toHaveLength(30);
    expect(polls).toBe(0);
    await vi.waitFor(() => expect(open).toBe(0), { timeout: 5_000 });
  });
});
