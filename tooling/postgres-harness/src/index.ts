import { randomBytes } from 'node:crypto';
import { createDatabase, type PostgresServer, startPostgres } from './postgresServer.js';

export type { PostgresBinaries } from './binaries.js';
export { preparedBinaries } from './binaries.js';
export type { DatabaseUser } from './databaseUser.js';
export { databaseUser } from './databaseUser.js';
export type { PostgresServer, StartedPostgresServer, StartPostgresOptions } from './postgresServer.js';
export { createDatabase, startPostgres } from './postgresServer.js';

/** The variable naming an existing PostgreSQL server to test against instead of starting one. */
export const POSTGRES_URL_VARIABLE = 'MCP_TASKS_POSTGRES_URL';

/**
 * The PostgreSQL server of a test run: the one `MCP_TASKS_POSTGRES_URL` names (never stopped here), or a private one
 * started now. Call once per run (a vitest globalSetup) and `stop` it in teardown.
 */
export async function postgresForTests(): Promise<PostgresServer> {
  const given = process.env[POSTGRES_URL_VARIABLE];
  if (given !== undefined && given !== '') {
    return { url: given, port: Number(new URL(given).port || 5432), stop: async () => undefined };
  }
  return startPostgres();
}

/** Creates a fresh, uniquely named database for one suite on the server at `serverUrl`; returns its URL. */
export function freshDatabase(serverUrl: string, prefix = 'test'): Promise<string> {
  return createDatabase(serverUrl, `${prefix}_${randomBytes(6).toString('hex')}`);
}
