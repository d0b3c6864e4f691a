/**
 * @mcp-tasks/task-store/testing: the contract suite every `TaskStore` must pass (vitest and fast-check are optional
 * peer dependencies, needed only here), and `withLatency` to run it through a slow network.
 *
 * @module @mcp-tasks/task-store/testing
 */
import { describe } from 'vitest';
import { concurrencyContract } from './concurrencyContract.js';
import { storeOpener, type TaskStoreFactory } from './contractContext.js';
import { coreContract } from './coreContract.js';
import { durableContract } from './durableContract.js';
import { inputContract } from './inputContract.js';
import { lifecycleContract } from './lifecycleContract.js';
import { limitsContract } from './limitsContract.js';
import { listContract } from './listContract.js';
import { ownershipContract } from './ownershipContract.js';

export type { OpenStore, TaskStoreFactory } from './contractContext.js';
export { ContractStore, storeOpener } from './contractContext.js';
export { withLatency } from './latencyStore.js';

/**
 * Registers the TaskStore contract suite (vitest `describe`/`it`) for the store `factory` builds: the store core
 * (swap, list, expireDue, lapsedLeases, watch) and the task operations on top of it, with real time. Every store must
 * pass it unchanged, also through `withLatency`; a store without durable execution passes `{ durable: false }`. The factory is called once per test and must return an empty
 * store honouring the given limits; each store is closed by the suite.
 */
export function describeTaskStoreContract(
  name: string,
  factory: TaskStoreFactory,
  options: {
    /** Also run the durable-execution part (the store must implement `DurableTaskStore`). @default true */
    readonly durable?: boolean;
  } = {},
): void {
  const open = storeOpener(factory);
  describe(`${name} (TaskStore contract)`, () => {
    coreContract(open);
    lifecycleContract(open);
    inputContract(open);
    ownershipContract(open);
    listContract(open);
    concurrencyContract(open);
    limitsContract(open);
    if (options.durable !== false) durableContract(open);
  });
}
