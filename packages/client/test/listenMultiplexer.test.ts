import { type DetailedTask, META, type TransportNotification } from '@mcp-tasks/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../src/clock.js';
import { ListenMultiplexer, MAX_QUICK_ENDS, QUICK_END_MS } from '../src/listenMultiplexer.js';
import { listenMultiplexer } from '../src/listenOptions.js';

/** One listen request the multiplexer opened, settled by the test. */
interface Opened {
  readonly id: number;
  readonly taskIds: string[];
  readonly signal: AbortSignal;
  readonly push: (method: string, params: Record<string, unknown>, subscriptionId?: number) => void;
  readonly ack: (taskIds?: string[]) => void;
  readonly state: (taskId: string, status: Parameters<typeof task>[1], lastUpdatedAt?: string) => void;
  readonly fail: () => void;
  readonly end: () => void;
}

function fakeServer() {
  const opened: Opened[] = [];
  let nextId = 100;
  const open = (
    params: Readonly<Record<string, unknown>>,
    onNotification: (notification: TransportNotification) => void,
    onSend: (id: number) => void,
    signal: AbortSignal,
  ) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      onSend(id);
      const taskIds = [...((params.notifications as { taskIds: string[] }).taskIds ?? [])];
      const push: Opened['push'] = (method, body, subscriptionId = id) =>
        onNotification({
          jsonrpc: '2.0',
          method,
          params: { ...body, _meta: { [META.subscriptionId]: subscriptionId } },
        });
      opened.push({
        id,
        taskIds,
        signal,
        push,
        ack: (agreed = taskIds) =>
          push('notifications/subscriptions/acknowledged', { notifications: { taskIds: agreed } }),
        state: (taskId, status, lastUpdatedAt = '2026-01-01T00:00:01Z') =>
          push('notifications/tasks', { ...task(taskId, status), lastUpdatedAt }),
        fail: () => reject(new Error('dropped')),
        end: () => resolve({ resultType: 'complete' }),
      });
      signal.addEventListener('abort', () => resolve({}), { once: true });
    });
  return { open, opened, live: () => opened.filter((o) => !o.signal.aborted) };
}

/** A well-formed state of each status the tests use. */
function task(taskId: string, status: 'working' | 'input_required' | 'completed' | 'failed'): DetailedTask {
  const base = { taskId, createdAt: '2026-01-01T00:00:00Z', lastUpdatedAt: '2026-01-01T00:00:00Z', ttlMs: null };
  switch (status) {
    case 'working':
      return { ...base, status };
    case 'completed':
      return { ...base, status, result: { content: [] } };
    case 'failed':
      return { ...base, status, error: { code: -32603, message: 'boom' } };
    case 'input_required':
      return {
        ...base,
        status,
        inputRequests: {
          k: {
            method: 'elicitation/create',
            params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } },
          },
        },
      } as DetailedTask;
  }
}

const SAFETY_MS = 60_000;
const POLL_MS = 1_000;

function setUp({
  maxTaskIdsPerStream = 1000,
  maxStreams = 8,
  joinIntervalMs = 0,
  mergePauseMsPerTask = 0,
  mergePauseMaxMs = 1000,
} = {}) {
  const server = fakeServer();
  const mux = new ListenMultiplexer({
    open: server.open,
    clock: systemClock,
    maxTaskIdsPerStream,
    maxStreams,
    joinIntervalMs,
    mergePauseMsPerTask,
    mergePauseMaxMs,
  });
  const polls: string[] = [];
  const observe = (taskId: string) => {
    const observer = mux.observe(
      taskId,
      async () => {
        polls.push(taskId);
        return task(taskId, 'working');
      },
      SAFETY_MS,
    );
    const controller = new AbortController();
    return { observer, next: () => observer.next(POLL_MS, controller.signal), close: () => observer.close() };
  };
  return { server, mux, polls, observe };
}

/** Lets microtasks (the batched flush, promise chains) run without moving the fake clock. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ListenMultiplexer', () => {
  it('subscribes tasks joining together with one listen request and routes each notification to its task', async () => {
    const { server, mux, observe } = setUp();
    const a = observe('a');
    const b = observe('b');
    await settle();
    expect(server.opened.map((o) => o.taskIds)).toEqual([['a', 'b']]);
    const [stream] = server.opened;
    stream!.ack();
    stream!.state('b', 'completed');
    // Noise: another subscription, a task nobody observes.
    stream!.push('notifications/tasks', { ...task('a', 'failed') }, 999);
    stream!.state('zzz', 'completed');
    stream!.state('a', 'input_required');
    await expect(b.next()).resolves.toMatchObject({ taskId: 'b', status: 'completed' });
    await expect(a.next()).resolves.toMatchObject({ taskId: 'a', status: 'input_required' });
    expect(mux.openStreams).toBe(1);
    a.close();
    b.close();
  });

  it('batches joins made while an ack is pending into one listen request carrying only the new ids', async () => {
    const { server, mux, observe } = setUp();
    const a = observe('a');
    await settle();
    const b = observe('b');
    for (const id of ['c', 'd']) observe(id);
    await settle();
    expect(server.opened).toHaveLength(1); // waits for the first ack
    server.opened[0]!.ack();
    await settle();
    expect(server.opened.map((o) => o.taskIds)).toEqual([['a'], ['b', 'c', 'd']]);
    server.opened[1]!.ack();
    // Both serve their own tasks: nothing was re-listed, nothing is closed.
    expect(server.live()).toHaveLength(2);
    expect(mux.openStreams).toBe(2);
    server.opened[1]!.state('b', 'completed');
    server.opened[0]!.state('a', 'completed');
    await expect(b.next()).resolves.toMatchObject({ taskId: 'b', status: 'completed' });
    await expect(a.next()).resolves.toMatchObject({ taskId: 'a', status: 'completed' });
  });

  it('catches up with the poll that was due anyway, unless a pushed state arrives first', async () => {
    const { server, polls, observe } = setUp();
    const a = observe('a');
    const b = observe('b');
    const nextA = a.next();
    const nextB = b.next();
    await settle();
    server.opened[0]!.ack();
    server.opened[0]!.state('b', 'working');
    await expect(nextB).resolves.toMatchObject({ taskId: 'b' });
    await vi.advanceTimersByTimeAsync(POLL_MS - 1);
    expect(polls).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await expect(nextA).resolves.toMatchObject({ taskId: 'a' });
    expect(polls).toEqual(['a']);
    // Live now: the next wait is the safety poll.
    const again = a.next();
    await vi.advanceTimersByTimeAsync(SAFETY_MS - 1);
    expect(polls).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(1);
    await again;
    expect(polls).toEqual(['a', 'a']);
  });

  it('drops a repeated state (a replacing stream opens with the current state of the tasks it takes over)', async () => {
    const { server, observe } = setUp({ maxStreams: 1 });
    const a = observe('a');
    await settle();
    server.opened[0]!.ack();
    server.opened[0]!.state('a', 'working');
    await a.next(); // the pushed state
    observe('b');
    await settle();
    server.opened[1]!.ack();
    server.opened[1]!.state('a', 'working'); // same state again, on the new stream
    server.opened[1]!.state('a', 'completed', '2026-01-01T00:00:02Z');
    await expect(a.next()).resolves.toMatchObject({ status: 'completed' });
  });

  it('polls a task the acknowledgement leaves out, and never asks for it again', async () => {
    const { server, polls, observe } = setUp();
    const a = observe('a');
    observe('b');
    await settle();
    server.opened[0]!.ack(['b']);
    const next = a.next();
    await vi.advanceTimersByTimeAsync(POLL_MS);
    await expect(next).resolves.toMatchObject({ taskId: 'a' });
    expect(polls).toContain('a');
    observe('c');
    await settle();
    expect(server.opened[1]!.taskIds).toEqual(['c']);
  });

  it('splits tasks over as few streams as the per-stream cap allows', async () => {
    const { server, mux, observe } = setUp({ maxTaskIdsPerStream: 2 });
    for (const id of ['a', 'b', 'c', 'd', 'e']) observe(id);
    await settle();
    expect(server.opened.map((o) => o.taskIds)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(mux.openStreams).toBe(3);
  });

  it('closes the stream once every task has left, and sends nothing when one leaves', async () => {
    const { server, mux, observe } = setUp();
    const a = observe('a');
    const b = observe('b');
    await settle();
    server.opened[0]!.ack();
    a.close();
    await settle();
    expect(server.opened).toHaveLength(1);
    expect(server.opened[0]!.signal.aborted).toBe(false);
    b.close();
    expect(server.opened[0]!.signal.aborted).toBe(true);
    expect(mux.openStreams).toBe(0);
  });

  it('falls back to polling when the stream fails before its ack, without asking again', async () => {
    const { server, polls, observe } = setUp();
    const a = observe('a');
    await settle();
    server.opened[0]!.fail();
    await settle();
    const next = a.next();
    await vi.advanceTimersByTimeAsync(POLL_MS);
    await expect(next).resolves.toMatchObject({ taskId: 'a' });
    expect(polls).toEqual(['a']);
    expect(server.opened).toHaveLength(1);
  });

  it('polls at once when a live stream ends, then listens again in the next round', async () => {
    const { server, polls, observe } = setUp();
    const a = observe('a');
    await settle();
    server.opened[0]!.ack();
    server.opened[0]!.state('a', 'working');
    await a.next();
    const waiting = a.next(); // would wait SAFETY_MS while live
    server.opened[0]!.end();
    await settle();
    await expect(waiting).resolves.toMatchObject({ taskId: 'a' });
    expect(polls).toEqual(['a']);
    expect(server.opened.map((o) => o.taskIds)).toEqual([['a'], ['a']]);
    server.opened[1]!.ack();
    server.opened[1]!.state('a', 'completed');
    await expect(a.next()).resolves.toMatchObject({ taskId: 'a', status: 'completed' });
    expect(polls).toEqual(['a']);
  });

  it(`stops listening again once ${MAX_QUICK_ENDS} streams in a row end within ${QUICK_END_MS} ms of their ack`, async () => {
    const { server, observe } = setUp();
    observe('a');
    await settle();
    // A stream that served for a while before it ended does not count.
    server.opened[0]!.ack();
    await vi.advanceTimersByTimeAsync(QUICK_END_MS);
    server.opened[0]!.end();
    await settle();
    for (let i = 1; i <= MAX_QUICK_ENDS; i++) {
      server.opened[i]!.ack();
      server.opened[i]!.end();
      await settle();
    }
    expect(server.opened).toHaveLength(MAX_QUICK_ENDS + 1);
    expect(server.opened.every((o) => o.taskIds.join() === 'a')).toBe(true);
  });

  it('when listening again fails (the server restarts), listens again after the next successful poll', async () => {
    const { server, polls, observe } = setUp();
    const a = observe('a');
    await settle();
    server.opened[0]!.ack();
    await vi.advanceTimersByTimeAsync(QUICK_END_MS);
    server.opened[0]!.fail(); // the connection dropped
    await settle();
    expect(server.opened.map((o) => o.taskIds)).toEqual([['a'], ['a']]);
    /** The listen request `index` fails (the server is not back yet); then the task's next poll succeeds. */
    const failThenPoll = async (index: number) => {
      server.opened[index]!.fail();
      await settle();
      const polled = a.next();
      await vi.advanceTimersByTimeAsync(POLL_MS);
      await expect(polled).resolves.toMatchObject({ taskId: 'a' });
      await settle();
    };
    server.opened[1]!.fail();
    await settle();
    // No new request until a poll gets through.
    expect(server.opened).toHaveLength(2);
    await failThenPoll(1);
    expect(polls).toEqual(['a']);
    expect(server.opened.map((o) => o.taskIds)).toEqual([['a'], ['a'], ['a']]);
    // Each failed attempt counts: after MAX_QUICK_ENDS of them in a row the task only polls.
    for (let attempt = 2; attempt <= MAX_QUICK_ENDS; attempt++) await failThenPoll(attempt);
    expect(server.opened).toHaveLength(MAX_QUICK_ENDS + 1);
    expect(polls).toHaveLength(MAX_QUICK_ENDS);
  });

  it('a stream that fails after its ack (the connection dropped) is listened to again as well', async () => {
    const { server, observe } = setUp();
    observe('a');
    observe('b');
    await settle();
    server.opened[0]!.ack(['a']);
    server.opened[0]!.fail();
    await settle();
    // b was refused by the ack: only a asks again.
    expect(server.opened.map((o) => o.taskIds)).toEqual([['a', 'b'], ['a']]);
  });

  it('waits joinIntervalMs between two rounds of listen requests', async () => {
    const { server, observe } = setUp({ joinIntervalMs: 20 });
    observe('a');
    await settle();
    server.opened[0]!.ack(); // the round went out at t=0
    observe('b');
    observe('c');
    await vi.advanceTimersByTimeAsync(19);
    expect(server.opened).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.opened.map((o) => o.taskIds)).toEqual([['a'], ['b', 'c']]);
  });

  it('at the bound, folds the stream with the fewest live tasks into the next request, closing it after the ack', async () => {
    const { server, mux, observe } = setUp({ maxStreams: 2 });
    observe('a');
    observe('b');
    await settle();
    server.opened[0]!.ack();
    const c = observe('c');
    await settle();
    server.opened[1]!.ack();
    expect(mux.openStreams).toBe(2);
    observe('d');
    await settle();
    expect(server.opened.map((o) => o.taskIds)).toEqual([['a', 'b'], ['c'], ['d', 'c']]);
    // No gap: the folded stream serves until its replacement is acknowledged.
    expect(server.opened[1]!.signal.aborted).toBe(false);
    server.opened[1]!.state('c', 'working');
    await expect(c.next()).resolves.toMatchObject({ taskId: 'c', status: 'working' });
    server.opened[2]!.ack();
    expect(server.opened[1]!.signal.aborted).toBe(true);
    expect(server.opened[0]!.signal.aborted).toBe(false);
    expect(mux.openStreams).toBe(2);
    // Only the stream a task is live on speaks for it now.
    server.opened[1]!.state('c', 'failed', '2026-01-01T00:00:03Z');
    server.opened[2]!.state('c', 'completed', '2026-01-01T00:00:02Z');
    await expect(c.next()).resolves.toMatchObject({ taskId: 'c', status: 'completed' });
  });

  it('before a round that folds a stream in, waits per task it re-lists, at most mergePauseMaxMs', async () => {
    const { server, observe } = setUp({ maxStreams: 1, mergePauseMsPerTask: 10, mergePauseMaxMs: 25 });
    observe('a');
    observe('b');
    await settle();
    server.opened[0]!.ack(); // t=0, 2 tasks live on the only stream
    observe('c');
    await vi.advanceTimersByTimeAsync(19); // 2 × 10 ms
    expect(server.opened).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.opened[1]!.taskIds).toEqual(['c', 'a', 'b']);
    server.opened[1]!.ack(); // t=20, 3 tasks live: 30 ms, capped at 25
    observe('d');
    await vi.advanceTimersByTimeAsync(24);
    expect(server.opened).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.opened[2]!.taskIds).toEqual(['d', 'c', 'a', 'b']);
  });

  it('keeps to the per-stream cap, exceeding the stream bound only when it must', async () => {
    const { server, mux, observe } = setUp({ maxTaskIdsPerStream: 2, maxStreams: 1 });
    observe('a');
    observe('b');
    await settle();
    server.opened[0]!.ack();
    observe('c');
    await settle();
    expect(server.opened.map((o) => o.taskIds)).toEqual([['a', 'b'], ['c']]);
    server.opened[1]!.ack();
    expect(mux.openStreams).toBe(2);
    expect(server.live()).toHaveLength(2);
  });

  it('leaves the streams a failed request would have replaced serving, and folds them in later', async () => {
    const { server, polls, observe } = setUp({ maxStreams: 1 });
    const a = observe('a');
    await settle();
    server.opened[0]!.ack();
    const b = observe('b');
    await settle();
    expect(server.opened[1]!.taskIds).toEqual(['b', 'a']);
    server.opened[1]!.fail();
    await settle();
    expect(server.opened[0]!.signal.aborted).toBe(false);
    server.opened[0]!.state('a', 'completed');
    await expect(a.next()).resolves.toMatchObject({ taskId: 'a', status: 'completed' });
    const next = b.next(); // b was refused with the request: it polls
    await vi.advanceTimersByTimeAsync(POLL_MS);
    await expect(next).resolves.toMatchObject({ taskId: 'b' });
    expect(polls).toEqual(['b']);
    observe('c');
    await settle();
    expect(server.opened[2]!.taskIds).toEqual(['c', 'a']);
  });

  it('closes a stream once its own tasks have left while the others keep serving', async () => {
    const { server, mux, observe } = setUp();
    const a = observe('a');
    await settle();
    server.opened[0]!.ack();
    const b = observe('b');
    await settle();
    server.opened[1]!.ack();
    a.close();
    expect(server.opened[0]!.signal.aborted).toBe(true);
    expect(server.opened[1]!.signal.aborted).toBe(false);
    expect(mux.openStreams).toBe(1);
    b.close();
    expect(mux.openStreams).toBe(0);
    expect(server.opened).toHaveLength(2);
  });

  it('closes a folded stream early when its last task leaves before the replacement is acknowledged', async () => {
    const { server, mux, observe } = setUp({ maxStreams: 1 });
    const a = observe('a');
    await settle();
    server.opened[0]!.ack();
    const b = observe('b');
    await settle();
    a.close();
    expect(server.opened[0]!.signal.aborted).toBe(true);
    server.opened[1]!.ack();
    expect(mux.openStreams).toBe(1);
    server.opened[1]!.state('b', 'completed');
    await expect(b.next()).resolves.toMatchObject({ taskId: 'b', status: 'completed' });
  });

  it('feeds every drive of a task driven twice at once, until the last one leaves', async () => {
    const { server, mux, observe } = setUp();
    const first = observe('a');
    const second = observe('a');
    await settle();
    expect(server.opened.map((o) => o.taskIds)).toEqual([['a']]);
    server.opened[0]!.ack();
    first.close();
    server.opened[0]!.state('a', 'completed');
    await expect(second.next()).resolves.toMatchObject({ status: 'completed' });
    expect(mux.openStreams).toBe(1);
    second.close();
    expect(mux.openStreams).toBe(0);
  });

  it('is off unless asked for, and checks the cap', () => {
    const open = fakeServer().open;
    expect(listenMultiplexer(undefined, systemClock, open)).toBeUndefined();
    expect(listenMultiplexer(false, systemClock, open)).toBeUndefined();
    expect(listenMultiplexer(true, systemClock, open)).toBeInstanceOf(ListenMultiplexer);
    expect(() => listenMultiplexer({ maxTaskIdsPerStream: 0 }, systemClock, open)).toThrow(RangeError);
    expect(() => listenMultiplexer({ maxStreams: 1.5 }, systemClock, open)).toThrow(/maxStreams/);
    expect(listenMultiplexer({ maxStreams: 1 }, systemClock, open)).toBeInstanceOf(ListenMultiplexer);
  });
});
