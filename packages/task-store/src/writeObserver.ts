import { applyBySwap } from './applyBySwap.js';
import type { CreateTaskOptions, SwapResult, TaskOwner, TaskRecord, TaskStore } from './taskStore.js';

/** Receives each write as the record it was computed from (undefined for a creation) and the record written. */
export type WriteObserver = (before: TaskRecord | undefined, after: TaskRecord) => void;

/** Creates a task in `store` and tells `observe` of it. */
export async function createObserved(
  store: TaskStore,
  owner: TaskOwner,
  options: CreateTaskOptions,
  observe: WriteObserver,
  report: (error: unknown) => void,
): Promise<TaskRecord> {
  const record = await store.create(owner, options);
  tellWrite(observe, undefined, record, report);
  return record;
}

/** Tells `observe` of a write, sending what it throws to `report`. */
function tellWrite(
  observe: WriteObserver,
  before: TaskRecord | undefined,
  after: TaskRecord,
  report: (error: unknown) => void,
): void {
  try {
    observe(before, after);
  } catch (error) {
    report(error);
  }
}

/**
 * Applies `step` to the task like `TaskOperations` does (the store's `update`, or read and `swap`), remembering the
 * record the winning transition was computed from, and tells `observe` of the write once it succeeded and changed
 * the record.
 */
export async function applyObserved(
  store: TaskStore,
  owner: TaskOwner,
  taskId: string,
  step: (current: TaskRecord) => TaskRecord | undefined,
  observe: WriteObserver,
  report: (error: unknown) => void,
): Promise<SwapResult> {
  let before: TaskRecord | undefined;
  const remembered = (current: TaskRecord) => {
    before = current;
    return step(current);
  };
  const outcome = await (store.update === undefined
    ? applyBySwap(store, owner, taskId, remembered)
    : store.update(owner, taskId, remembered));
  if (outcome.ok && before !== undefined && outcome.record !== before)
    tellWrite(observe, before, outcome.record, report);
  return outcome;
}
