/**
 * What `onAbort` registered on each signal: the one listener added to it directly, or, from the second listener
 * on, the `Set` of the listeners one fan-out listener runs. Weakly held: a signal that is collected takes its
 * entry with it.
 */
const registered = new WeakMap<AbortSignal, (() => void) | Set<() => void>>();

/**
 * Calls `listener` once when `signal` aborts, and returns the function that removes it (idempotent; call it when
 * the work the listener guards ends, so nothing stays reachable from a long-lived signal).
 *
 * Contract, as for `signal.addEventListener('abort', listener, { once: true })`:
 * - nothing is called for a signal that has already aborted: check `signal.aborted` first;
 * - listeners run in the order they were added; one removed by an earlier one while they run is not called;
 * - register each function once (the same function added twice may run twice).
 *
 * Why not `addEventListener` directly: every listener added to one `AbortSignal` counts towards Node's
 * `MaxListenersExceededWarning`, printed once an 11th is added. A caller's signal is commonly shared by many
 * concurrent requests (one `AbortController` for a whole job), and a session's or server's own signal by everything
 * in flight on it, so a library adding one listener per call makes applications print a leak warning in normal use.
 * Here a signal gets at most two listeners: the first one registered (as `addEventListener` would, the common case
 * of a signal guarding one piece of work, at no extra cost), and one that runs all later ones from a `Set`. A thrown
 * error surfaces as from an event listener: it does not stop the others.
 */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  const current = registered.get(signal);
  if (current === undefined) {
    registered.set(signal, listener);
    signal.addEventListener('abort', listener, { once: true });
    return () => {
      signal.removeEventListener('abort', listener);
      if (registered.get(signal) === listener) registered.delete(signal);
    };
  }
  let fanOut = current;
  if (typeof fanOut === 'function') {
    const listeners = new Set<() => void>();
    fanOut = listeners;
    registered.set(signal, listeners);
    signal.addEventListener('abort', () => runListeners(listeners), { once: true });
  }
  const listeners = fanOut;
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

function runListeners(listeners: Set<() => void>): void {
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
