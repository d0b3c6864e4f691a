/**
 * A TaskStore wrapper that injects faults: in `fail` mode every call rejects, in `stall` mode every call waits
 * until the mode changes back, then goes through. Written against the `taskStore` option `McpServer` takes.
 */
import { InMemoryTaskStore, type TaskStore } from '@mcp-tasks/task-store';

export type FaultMode = 'ok' | 'fail' | 'stall';

export interface FaultyStore {
  readonly store: TaskStore;
  /** Switches the fault on or off; leaving `stall` releases the calls that waited. */
  set(mode: FaultMode): void;
  /** Calls failed or stalled so far. */
  readonly injected: number;
}

export function faultyStore(inner: TaskStore = new InMemoryTaskStore()): FaultyStore {
  let mode: FaultMode = 'ok';
  let injected = 0;
  let released: Array<() => void> = [];
  const store = new Proxy(inner, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (mode === 'ok' || property === 'close') return value.apply(target, args);
        injected++;
        if (mode === 'fail') return Promise.reject(new Error(`injected store failure in ${String(property)}`));
        return new Promise<void>((resolve) => released.push(resolve)).then(() => value.apply(target, args));
      };
    },
  });
  return {
    store,
    set(next) {
      mode = next;
      if (next !== 'stall') {
        const waiting = released;
        released = [];
        for (const release of waiting) release();
      }
    },
    get injected() {
      return injected;
    },
  };
}
