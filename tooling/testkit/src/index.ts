/**
 * @mcp-tasks/testkit: test helpers for the mcp-tasks packages. `linkedPair(handler)` connects a client to a server
 * runtime in memory, with wire (JSON) semantics and no sockets.
 */

export type { ContractHandler, ContractState } from './contractHandler.js';
export { createContractHandler } from './contractHandler.js';
export type { LinkedPair, LinkedPairOptions } from './linkedPair.js';
export { linkedPair } from './linkedPair.js';
