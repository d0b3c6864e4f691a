import type { DetailedTask } from '@mcp-tasks/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Clock, systemClock } from '../src/clock.js';
import { queuedObserver } from '../src/observerQueue.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

const times = { taskId: 't1', createdAt: '2026-01-01T00:00:00Z', lastUpdatedAt: '2026-01-01T00:00:00Z', ttlMs: null };
const working: DetailedTask = { ...times, status: 'working' };
const completed: DetailedTask = { ...times, status: 'completed', result: { content: [] } };

/** The system clock as a caller's own clock would be: `now` and `sleep` only, no `timer`. */
const sleepOnlyClock: Clock = { now: () => systemClock.now(), sleep: (ms, signal) => systemClock.sleep(ms, signal) };

describe.each([
  ['a clock with timer (the system clock)', systemClock],
  ['a clock with sleep only', sleepOnlyClock],
])('queuedObserver waits with %s', (_name, clock) => {
  function observer() {
    const poll = vi.fn(async () => working);
    const made = queuedObserver({ poll, clock, safetyPollMs: 60_000, onClose: () => undefined, catchUp: 'now' });
    return { ...made, poll };
  }

  it('resolves with a pushed state before the delay, and leaves no timer behind', async () => {
    const { observer: o, feed, poll } = observer();
    const next = o.next(5_000, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(1_000);
    feed.state(completed);
    await expect(next).resolves.toMatchObject({ status: 'completed' });
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(poll).not.toHaveBeenCalled();
  });

  it('polls once the delay passes with nothing pushed', async () => {
    const { observer: o, poll } = observer();
    const next = o.next(5_000, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(poll).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(next).resolves.toMatchObject({ status: 'working' });
    expect(poll).toHaveBeenCalledTimes(1);
  });

  it('rejects with the abort reason, clears its timer and does not poll', async () => {
    const { observer: o, poll } = observer();
    const controller = new AbortController();
    const next = o.next(5_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(next).rejects.toThrow('stop');
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(poll).not.toHaveBeenCalled();
  });
});

describe('systemClock.timer', () => {
  it('calls back once after the delay; its cancel stops it and is idempotent', async () => {
    const fired: string[] = [];
    systemClock.timer?.(100, () => fired.push('a'));
    const cancel = systemClock.timer?.(100, () => fired.push('b'));
    cancel?.();
    cancel?.();
    await vi.advanceTimersByTimeAsync(99);
    expect(fired).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(fired).toEqual(['a']);
    expect(vi.getTimerCount()).toBe(0);
  });
});
