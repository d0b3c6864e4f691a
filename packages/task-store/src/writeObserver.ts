import { applyBySwap } from './applyBySwap.js';
import type { SwapResult, TaskRecord, TaskStore } from './taskStore.js';

/** Receives each write as the record it was computed from (undefined for a creation) and the record written. */
export type WriteObserver = (before: TaskRecord | undefined, after: TaskRecord) => void;

type Step = (current: TaskRecord) => TaskRecord | undefined;

/**
 * `store` telling `observe` of every creation and every transition written through `update` (which it always has:
 * a store without one is read and swapped like `TaskOperations` does): the record the winning transition was
 * computed from, and the record written. Other methods pass through. Exceptions `observe` throws go to `report`.
 */
export function observeWrites<S extends TaskStore>(
  store: S,
  observe: WriteObserver,
  report: (error: unknown) => void,
): S {
  const tell = (before: TaskRecord | undefined, after: TaskRecord) => {
    try {
      observe(before, after);
    } catch (error) {
      report(error);
    }
  };
  const create: TaskStore['create'] = async (owner, options) => {
    const record = await store.create(owner, options);
    tell(undefined, record);
    return record;
  };
  const update = async (owner: string, taskId: string, step: Step): Promise<SwapResult> => {
    let before: TaskRecord | undefined;
    const remembered = (current: TaskRecord) => {
      before = current;
      return step(current);
    };
    const outcome = await (store.update === undefined
      ? applyBySwap(store, owner, taskId, remembered)
      : store.update(owner, taskId, remembered));
    if (outcome.ok && before !== undefined && outcome.record !== before) tell(before, outcome.record);
    return outcome;
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === 'create') return create;
      if (property === 'update') return update;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
