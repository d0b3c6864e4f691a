export { PostgresTaskStore } from './postgresTaskStore.js';
export type { PostgresTaskStoreOptions } from './postgresTaskStoreOptions.js';
export { isUnavailable, TaskStoreUnavailableError } from './unavailable.js';
