import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { delay, onAbort } from '../src/index.js';

describe('onAbort', () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.name);
  afterEach(() => {
    process.off('warning', onWarning);
    warnings.length = 0;
  });

  it('calls every listener once, in the order added, through at most two listeners on the signal', () => {
    const controller = new AbortController();
    const calls: number[] = [];
    onAbort(controller.signal, () => calls.push(0));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    for (let i = 1; i < 50; i++) onAbort(controller.signal, () => calls.push(i));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(2);
    controller.abort();
    controller.abort();
    expect(calls).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('does not call a removed listener, nor one removed by an earlier listener while they run', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const offA = onAbort(controller.signal, () => calls.push('a'));
    let offC: () => void = () => undefined;
    onAbort(controller.signal, () => {
      calls.push('b');
      offC();
    });
    offC = onAbort(controller.signal, () => calls.push('c'));
    offA();
    offA();
    controller.abort();
    expect(calls).toEqual(['b']);
  });

  it('calls nothing for a signal that already aborted, and takes a removed first listener off the signal', () => {
    const controller = new AbortController();
    let calls = 0;
    const off = onAbort(controller.signal, () => calls++);
    off();
    off();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    onAbort(controller.signal, () => calls++);
    controller.abort();
    expect(calls).toBe(1);
    onAbort(controller.signal, () => calls++);
    onAbort(AbortSignal.abort(), () => calls++);
    expect(calls).toBe(1);
  });

  it('runs the other listeners when one throws, and rethrows its error on a later microtask', async () => {
    const controller = new AbortController();
    const calls: string[] = [];
    onAbort(controller.signal, () => calls.push('first'));
    onAbort(controller.signal, () => {
      throw new Error('listener failed');
    });
    onAbort(controller.signal, () => calls.push('after'));
    const original = globalThis.queueMicrotask;
    const rethrown: unknown[] = [];
    globalThis.queueMicrotask = (callback) =>
      original(() => {
        try {
          callback();
        } catch (error) {
          rethrown.push(error);
        }
      });
    try {
      controller.abort();
      await Promise.resolve();
    } finally {
      globalThis.queueMicrotask = original;
    }
    expect(calls).toEqual(['first', 'after']);
    expect(rethrown).toEqual([new Error('listener failed')]);
  });

  it('lets many waits share one signal without a MaxListenersExceededWarning', async () => {
    process.on('warning', onWarning);
    const controller = new AbortController();
    const waits = Array.from({ length: 30 }, () => delay(60_000, controller.signal));
    controller.abort(new Error('stop'));
    for (const wait of waits) await expect(wait).rejects.toThrow('stop');
    // Process warnings are emitted on a later tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});
