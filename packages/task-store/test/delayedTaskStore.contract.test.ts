import { InMemoryTaskStore } from '../src/index.js';
import { describeTaskStoreContract } from '../src/testing/index.js';
import { delayedTaskStore } from './delayedTaskStore.js';

// The suite must hold for stores whose calls and events arrive late, as a remote store's would.
describeTaskStoreContract('delayed InMemoryTaskStore', (limits) => delayedTaskStore(new InMemoryTaskStore(limits)));
