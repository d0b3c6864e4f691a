/** Yields to the event loop once, so long CPU-bound loops let requests (e.g. `tasks/cancel`) through. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
