import type { StatementRunner } from './statementRunner.js';

/** SQLSTATE of a deadlock PostgreSQL broke by aborting this transaction. */
const DEADLOCK = '40P01';

/**
 * Runs the idempotent migration, again (up to 5 times, 50 ms apart and growing) when PostgreSQL broke a deadlock by
 * aborting it: its DDL locks the tables that the other instances are writing, which a rolling restart under load can
 * turn into a deadlock. Any other error rejects at once.
 */
export async function migrateWithRetry(runner: StatementRunner, migration: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await runner.query(migration, []);
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== DEADLOCK || attempt >= 5) throw runner.mapError(error);
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
