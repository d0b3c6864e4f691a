import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../src/index.js';

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('systemClock', () => {
  it('sleeps for the given time', async () => {
    let done = false;
    const sleeping = systemClock.sleep(100).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(99);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await sleeping;
    expect(systemClock.now()).toBe(100);
  });

  it('rejects with the abort reason and clears its timer', async () => {
    const controller = new AbortController();
    const sleeping = systemClock.sleep(10_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
    expect(vi.getTimerCount()).toBe(0);
    await expect(systemClock.sleep(1, controller.signal)).rejects.toThrow('stop');
  });
});
