/**
 * Resolves after `ms`, or rejects with `signal.reason` as soon as `signal` aborts (immediately if it already has).
 * The timer is cleared on abort, so a cancelled task leaves nothing behind.
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Yields to the event loop once, so long CPU-bound loops let requests (e.g. `tasks/cancel`) through. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
