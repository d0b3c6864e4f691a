import { describe, expect, it, vi } from 'vitest';
import { CallAbort, callAbortOf } from '../src/callAbort.js';

describe('CallAbort', () => {
  it('makes no AbortSignal until read, and one read after the abort is already aborted with its reason', () => {
    const abort = new CallAbort();
    const reason = new Error('cancelled');
    abort.abort(reason);
    abort.abort(new Error('second reason is ignored'));
    expect(abort.aborted).toBe(true);
    expect(abort.reason).toBe(reason);
    expect(abort.signal.aborted).toBe(true);
    expect(abort.signal.reason).toBe(reason);
  });

  it('aborts a signal read earlier, then calls its listeners once, in order', () => {
    const abort = new CallAbort();
    const order: string[] = [];
    abort.signal.addEventListener('abort', () => order.push('signal'));
    abort.onAbort((reason) => order.push(`first ${String(reason)}`));
    abort.onAbort(() => order.push('second'));
    abort.abort('why');
    abort.abort('again');
    expect(order).toEqual(['signal', 'first why', 'second']);
  });

  it('calls a listener added after the abort at once; offAbort removes one occurrence', () => {
    const abort = new CallAbort();
    const calls: string[] = [];
    const listener = (reason: unknown) => calls.push(String(reason));
    abort.onAbort(listener);
    abort.onAbort(listener);
    abort.offAbort(listener);
    abort.offAbort(() => undefined);
    abort.abort('r');
    expect(calls).toEqual(['r']);
    abort.onAbort(listener);
    expect(calls).toEqual(['r', 'r']);
  });

  it('runs every listener when one throws, and reports the error asynchronously', async () => {
    const abort = new CallAbort();
    const thrown = new Error('listener bug');
    const reported = new Promise<unknown>((resolve) => {
      const original = globalThis.queueMicrotask;
      vi.spyOn(globalThis, 'queueMicrotask').mockImplementationOnce((callback) => {
        original(() => {
          try {
            callback();
          } catch (error) {
            resolve(error);
          }
        });
      });
    });
    let second = false;
    abort.onAbort(() => {
      throw thrown;
    });
    abort.onAbort(() => {
      second = true;
    });
    abort.abort('r');
    expect(second).toBe(true);
    expect(await reported).toBe(thrown);
    vi.restoreAllMocks();
  });

  it('follows a request signal: the same signal, listeners called when it aborts', () => {
    const controller = new AbortController();
    const source = { signal: controller.signal };
    const follower = callAbortOf(source);
    expect(follower.signal).toBe(controller.signal);
    const seen: unknown[] = [];
    follower.onAbort((reason) => seen.push(reason));
    controller.abort('gone');
    expect(seen).toEqual(['gone']);
    const own = new CallAbort();
    expect(callAbortOf(own)).toBe(own);
    const late = callAbortOf({ signal: AbortSignal.abort('already') });
    expect(late.aborted).toBe(true);
    expect(late.reason).toBe('already');
  });
});
