import { freshDatabase, postgresForTests } from '@mcp-tasks/postgres-harness';
import { getThroughput } from './postgresInstances.js';
import { crossInstanceLatency } from './postgresLatency.js';
import { postgresStoreOps } from './postgresStoreOps.js';

/**
 * The PostgreSQL store side by side with the in-memory one, on a private PostgreSQL started for the run (or the one
 * MCP_TASKS_POSTGRES_URL names) on this machine: store operations per second, `tasks/get` throughput of one tool
 * server against two on the same database, and cross-instance wake-up and cancel latency.
 */
export async function postgresCase(ctx) {
  const postgres = await postgresForTests();
  try {
    const url = await freshDatabase(postgres.url, 'bench');
    return [
      ...(await postgresStoreOps(ctx, url)),
      ...(await getThroughput(ctx, url)),
      ...(await crossInstanceLatency(ctx, url)),
    ];
  } finally {
    await postgres.stop();
  }
}
