import { onAbort } from './onAbort.js';

/**
 * Resolves after `ms` milliseconds, or rejects with `signal.reason` as soon as `signal` aborts (at once if it already
 * has). The timer is cleared on abort and the listener removed when it fires, so an aborted or finished wait keeps
 * nothing alive. Uses the global `setTimeout`, so `vi.useFakeTimers()` drives it.
 */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      off?.();
      resolve();
    }, ms);
    const off =
      signal === undefined
        ? undefined
        : onAbort(signal, () => {
            clearTimeout(timer);
            reject(signal.reason);
          });
  });
}
