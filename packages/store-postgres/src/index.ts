/**
 * @mcp-tasks/store-postgres: a `TaskStore` on PostgreSQL: durable tasks shared by several server instances on one
 * database, with cross-instance wake-ups, so nothing is lost when one instance dies.
 *
 * @module @mcp-tasks/store-postgres
 */

export { PostgresTaskStore } from './postgresTaskStore.js';
export type { PostgresTaskStoreOptions } from './postgresTaskStoreOptions.js';
export { isUnavailable, TaskStoreUnavailableError } from './unavailable.js';
