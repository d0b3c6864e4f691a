/**
 * @mcp-tasks/transport-kit/testing: the transport contract suite (vitest, an optional peer dependency), the fake
 * handler it serves, and an in-memory linked client/server pair for tests and examples.
 *
 * @module @mcp-tasks/transport-kit/testing
 */

export type { ContractHandler, ContractState } from './contractHandler.js';
export { createContractHandler } from './contractHandler.js';
export { describeTransportContract } from './describeTransportContract.js';
export type { LinkedPair, LinkedPairOptions } from './linkedPair.js';
export { linkedPair } from './linkedPair.js';
export { MessageQueue } from './messageQueue.js';
export type { RawChannel, TransportContractOptions, TransportUnderTest } from './transportUnderTest.js';
