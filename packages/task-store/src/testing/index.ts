import { describe } from 'vitest';
import { concurrencyContract } from './concurrencyContract.js';
import { storeOpener, type TaskStoreFactory } from './contractContext.js';
import { expiryContract } from './expiryContract.js';
import { inputContract } from './inputContract.js';
import { lifecycleContract } from './lifecycleContract.js';
import { ownershipContract } from './ownershipContract.js';
import { propertyContract } from './propertyContract.js';

export type { TaskStoreFactory } from './contractContext.js';

/**
 * Registers the TaskStore contract suite (vitest `describe`/`it`, fast-check properties) for the store `factory`
 * builds. Every store must pass it unchanged. The factory is called once per test (and per property run) and must
 * return an empty store honouring the given limits and `onSweep`, reading `Date.now`/`setTimeout` at call time so
 * `vi.useFakeTimers()` controls its clock and expiry timer. Each store is closed by the suite.
 */
export function describeTaskStoreContract(name: string, factory: TaskStoreFactory): void {
  const open = storeOpener(factory);
  describe(`${name} (TaskStore contract)`, () => {
    lifecycleContract(open);
    inputContract(open);
    ownershipContract(open);
    concurrencyContract(open);
    expiryContract(open);
    propertyContract(open);
  });
}
