/**
 * The 2025-11-25 era of the server: sessions (`initialize`), server-to-client requests and the experimental
 * task-augmented `tools/call` with its `tasks/*` methods, translated onto the core's tool registry, supervisor and
 * task store. This file is the only way into the folder: the core imports nothing from it except through
 * `mcpServer.ts` (which composes the era) and `index.ts` (which re-exports the public names). Deleting the folder
 * and those imports removes the 2025 era.
 */
export { LegacyEra } from './legacyEra.js';
export { PeerRequestError } from './legacyPeerInput.js';
export { toLegacyError } from './legacyResults.js';
export { createLegacyTaskRoutes } from './legacyTaskEra.js';
