import { describeTransportContract, linkedPair } from '../src/testing/index.js';

describeTransportContract('in-memory linked pair', {
  connectionSession: true,
  start: async (handler) => {
    const client = linkedPair(handler);
    return { client, close: () => client.close(), dropServer: async () => client.disconnect() };
  },
});
