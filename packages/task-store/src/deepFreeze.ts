/**
 * Freezes `value` and every object reachable from it, in place, and returns it. An object that is already frozen
 * is taken to be deep-frozen (the store's own records are), which also stops cycles. Iterative, so a deeply nested
 * payload from a client cannot overflow the stack.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  const stack: object[] = [value];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    for (const key of Object.keys(next)) {
      const child: unknown = (next as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null && !Object.isFrozen(child)) {
        Object.freeze(child);
        stack.push(child);
      }
    }
  }
  return value;
}
