import { InMemoryTaskStore } from '../src/index.js';
import { describeTaskStoreContract, withLatency } from '../src/testing/index.js';

// The suite must hold for a store whose calls and events arrive milliseconds late, as a remote store's would.
describeTaskStoreContract('InMemoryTaskStore with 2 ms latency', (limits) =>
  withLatency(new InMemoryTaskStore(limits), 2),
);
