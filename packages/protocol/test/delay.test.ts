import { afterEach, describe, expect, it, vi } from 'vitest';
import { delay } from '../src/index.js';

describe('delay', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves after the given time, driven by fake timers', async () => {
    vi.useFakeTimers();
    let done = false;
    const waiting = delay(1_000).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(done).toBe(true);
  });

  it("rejects with the signal's reason when aborted, and leaves no timer behind", async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const waiting = delay(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at once for a signal that has already aborted', async () => {
    await expect(delay(60_000, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  });
});
