import { describe, expect, it } from 'vitest';
import { pollDelay, resolvePollingOptions, TaskTracker } from '../src/taskTracker.js';

const base = { createdAt: new Date(0).toISOString(), ttlMs: null };
const options = resolvePollingOptions({
  minIntervalMs: 100,
  maxIntervalMs: 5000,
  defaultIntervalMs: 1000,
  stuckAfterPolls: 3,
});
const elicitation = { method: 'elicitation/create', params: { message: 'x', requestedSchema: {} } };

describe('pollDelay', () => {
  it('follows the server pollIntervalMs (C6)', () => {
    expect(pollDelay({ pollIntervalMs: 250 }, options)).toBe(250);
  });
  it('uses the default when the server sends none', () => {
    expect(pollDelay({}, options)).toBe(1000);
  });
  it('clamps to the floor and the cap, so 0 cannot busy-loop', () => {
    expect(pollDelay({ pollIntervalMs: 0 }, options)).toBe(100);
    expect(pollDelay({ pollIntervalMs: 3_600_000 }, options)).toBe(5000);
  });
});

describe('resolvePollingOptions', () => {
  it('applies defaults (stuck after 60 polls)', () => {
    expect(resolvePollingOptions()).toEqual({
      defaultIntervalMs: 1000,
      minIntervalMs: 100,
      maxIntervalMs: 30_000,
      stuckAfterPolls: 60,
      honourTtl: true,
    });
  });
  it('rejects a floor above the cap', () => {
    expect(() => resolvePollingOptions({ minIntervalMs: 10, maxIntervalMs: 5 })).toThrow(RangeError);
  });
});

describe('TaskTracker', () => {
  it('finishes on every terminal status', () => {
    for (const status of ['completed', 'failed', 'cancelled']) {
      expect(new TaskTracker(options).observe({ ...base, status }, 0)).toEqual({ action: 'finish' });
    }
  });

  it('polls a working task after the latest interval, which may change (C6)', () => {
    const tracker = new TaskTracker(options);
    expect(tracker.observe({ ...base, status: 'working', pollIntervalMs: 200 }, 0)).toEqual({
      action: 'poll',
      delayMs: 200,
    });
    expect(tracker.observe({ ...base, status: 'working', pollIntervalMs: 700 }, 0)).toEqual({
      action: 'poll',
      delayMs: 700,
    });
  });

  it('hands out each input key once across repeated polls (C13)', () => {
    const tracker = new TaskTracker(options);
    const first = tracker.observe(
      { ...base, status: 'input_required', inputRequests: { a: elicitation, b: elicitation } },
      0,
    );
    expect(first).toMatchObject({ action: 'answer', keys: ['a', 'b'] });
    const again = tracker.observe(
      { ...base, status: 'input_required', inputRequests: { a: elicitation, b: elicitation } },
      0,
    );
    expect(again).toEqual({ action: 'poll', delayMs: 1000 });
    const more = tracker.observe(
      { ...base, status: 'input_required', inputRequests: { b: elicitation, c: elicitation } },
      0,
    );
    expect(more).toMatchObject({ action: 'answer', keys: ['c'] });
    expect(tracker.answeredKeys).toEqual(['a', 'b', 'c']);
  });

  it('gives up as stuck after N consecutive input_required polls with nothing new', () => {
    const tracker = new TaskTracker(options);
    const state = { ...base, status: 'input_required', inputRequests: { a: elicitation } };
    expect(tracker.observe(state, 0).action).toBe('answer');
    expect(tracker.observe(state, 0).action).toBe('poll');
    expect(tracker.observe(state, 0).action).toBe('poll');
    expect(tracker.observe(state, 0)).toEqual({ action: 'give_up', reason: 'stuck' });
  });

  it('resets the stuck count when the task goes back to working', () => {
    const tracker = new TaskTracker(options);
    const waiting = { ...base, status: 'input_required', inputRequests: { a: elicitation } };
    tracker.observe(waiting, 0);
    tracker.observe(waiting, 0);
    tracker.observe(waiting, 0);
    tracker.observe({ ...base, status: 'working' }, 0);
    expect(tracker.observe(waiting, 0).action).toBe('poll');
    expect(tracker.observe(waiting, 0).action).toBe('poll');
  });

  it('gives up as expired once createdAt + ttlMs has passed (C9), and never with ttlMs null', () => {
    const state = { status: 'working', createdAt: new Date(1000).toISOString(), ttlMs: 500 };
    expect(new TaskTracker(options).observe(state, 1499).action).toBe('poll');
    expect(new TaskTracker(options).observe(state, 1500)).toEqual({ action: 'give_up', reason: 'expired' });
    expect(new TaskTracker(options).observe({ ...state, ttlMs: null }, 10 ** 12).action).toBe('poll');
    const lenient = resolvePollingOptions({ honourTtl: false });
    expect(new TaskTracker(lenient).observe(state, 10 ** 12).action).toBe('poll');
  });
});
