import { InMemoryTaskStore } from '../src/index.js';
import { describeTaskStoreContract } from '../src/testing/index.js';

describeTaskStoreContract('InMemoryTaskStore', (limits) => new InMemoryTaskStore(limits));
