import { describe } from 'vitest';
import { InMemoryTaskStore } from '../src/index.js';
import { describeTaskStoreContract, storeOpener } from '../src/testing/index.js';
import { expiryContract } from './inMemoryExpiry.js';
import { propertyContract } from './inMemoryProperties.js';

describeTaskStoreContract('InMemoryTaskStore', (limits) => new InMemoryTaskStore(limits));

// The in-memory store's own promises, driven by fake timers: exact expiry deadlines, sweep cost, random histories.
describe('InMemoryTaskStore (fake timers)', () => {
  const open = storeOpener((limits) => new InMemoryTaskStore(limits));
  expiryContract(open);
  propertyContract(open);
});
