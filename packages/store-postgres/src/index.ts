export type { PostgresTaskStoreOptions } from './postgresTaskStore.js';
export { PostgresTaskStore } from './postgresTaskStore.js';
export { isUnavailable, TaskStoreUnavailableError } from './unavailable.js';
