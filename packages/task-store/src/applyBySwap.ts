import type { SwapResult, TaskOwner, TaskRecord, TaskStore } from './taskStore.js';

/**
 * Read, transition, conditional write through `get` and `swap` (for a store without `update`); on a lost race,
 * transitions the record that won and tries again. `step` returning undefined or the current record ends it.
 */
export async function applyBySwap(
  store: TaskStore,
  owner: TaskOwner,
  taskId: string,
  step: (current: TaskRecord) => TaskRecord | undefined,
): Promise<SwapResult> {
  let current = await store.get(owner, taskId);
  while (current !== undefined) {
    const next = step(current);
    if (next === undefined || next === current) return { ok: false, current };
    const swapped = await store.swap(owner, taskId, current.version, next);
    if (swapped.ok) return swapped;
    current = swapped.current;
  }
  return { ok: false, current: undefined };
}
