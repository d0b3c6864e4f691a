/**
 * The listeners of each signal that has any, run by one `abort` listener of its own. Weakly held: a signal that is
 * collected takes its listeners with it.
 */
const listenersBySignal = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `listener` once when `signal` aborts, and returns the function that removes it (idempotent; call it when
 * the work the listener guards ends, so nothing stays reachable from a long-lived signal).
 *
 * Contract, as for `signal.addEventListener('abort', listener, { once: true })`:
 * - nothing is called for a signal that has already aborted: check `signal.aborted` first;
 * - adding the same function twice while it is registered adds it once;
 * - listeners run in the order they were added; one that throws does not stop the others (its error is rethrown
 *   on a later microtask, so it surfaces as an uncaught error, as from an event listener).
 *
 * Why not `addEventListener` directly: every listener added to one `AbortSignal` counts towards Node's
 * `MaxListenersExceededWarning`, printed once an 11th is added. A caller's signal is commonly shared by many
 * concurrent requests (one `AbortController` for a whole job), and a session's or server's own signal by everything
 * in flight on it, so a library adding one listener per call makes applications print a leak warning in normal use.
 * Here a signal gets one `abort` listener however many are registered, and a removed one is dropped from a `Set`.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  let listeners = listenersBySignal.get(signal);
  if (listeners === undefined) {
    const registered = new Set<() => void>();
    listeners = registered;
    listenersBySignal.set(signal, registered);
    signal.addEventListener('abort', () => runListeners(signal, registered), { once: true });
  }
  const set = listeners;
  set.add(listener);
  return () => {
    set.delete(listener);
  };
}

function runListeners(signal: AbortSignal, listeners: Set<() => void>): void {
  listenersBySignal.delete(signal);
  // A listener removed by an earlier one while they run is not called, as with an event's listeners.
  for (const listener of [...listeners]) {
    if (!listeners.delete(listener)) continue;
    try {
      listener();
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}
