/**
 * The 2025 era of the client (MCP 2025-03-26, 2025-06-18, 2025-11-25): an adapter beside the 2026-07-28 core, used
 * only by the composition files (`mcpClient.ts`, `eraConnection.ts`). Nothing else imports this folder, so removing
 * the era means deleting it and those imports.
 */

export type { LegacyParts, LegacyPartsOptions, LegacyToolCaller } from './legacyParts.js';
export { createLegacyParts } from './legacyParts.js';
export type { LegacySessionOptions } from './legacySession.js';
export { LegacySession } from './legacySession.js';
