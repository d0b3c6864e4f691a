import type { TaskStore } from './taskStore.js';

/** Receives the name, duration (ms) and failure of one store call. */
export type StoreCallObserver = (operation: string, durationMs: number, failed: boolean) => void;

/**
 * `store` with every promise-returning method timed: `observe` gets the method's name, how long the promise took
 * and whether it rejected. Works for any store (in memory, PostgreSQL, your own) and for the optional methods
 * (`update`, the `DurableTaskStore` ones): a method the store lacks stays absent. Methods are called on the store
 * itself, so stores with private fields work. Exceptions `observe` throws go to `report`.
 */
export function timeTaskStore<S extends TaskStore>(
  store: S,
  observe: StoreCallObserver,
  report: (error: unknown) => void,
): S {
  const timed = new Map<PropertyKey, unknown>();
  const tell = (operation: string, started: number, failed: boolean) => {
    try {
      observe(operation, performance.now() - started, failed);
    } catch (error) {
      report(error);
    }
  };
  return new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      let wrapper = timed.get(property);
      if (wrapper === undefined) {
        const method = value as (...args: unknown[]) => unknown;
        wrapper = (...args: unknown[]) => {
          const started = performance.now();
          const result = method.apply(target, args);
          if (!(result instanceof Promise)) return result;
          return result.then(
            (resolved) => {
              tell(property, started, false);
              return resolved;
            },
            (error: unknown) => {
              tell(property, started, true);
              throw error;
            },
          );
        };
        timed.set(property, wrapper);
      }
      return wrapper;
    },
  });
}
