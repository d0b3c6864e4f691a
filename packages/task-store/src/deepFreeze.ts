/**
 * Freezes `value` and every object reachable from it, in place, and returns it. An object that is already frozen
 * is taken to be deep-frozen (the store's own records are), which also stops cycles.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
