import type pg from 'pg';
import type { Statements } from './schema.js';

/** The per-owner limits a create checks, and how a database error is reported. */
export interface OwnerLimits {
  readonly maxTasksPerOwner: number;
  readonly maxFinishedTasksPerOwner: number;
  readonly mapError: (error: unknown) => unknown;
}

/**
 * Under a per-owner lock, so concurrent creates cannot pass the limits together: marks the owner's finished tasks
 * beyond `maxFinishedTasksPerOwner` due, then inserts if the owner's live tasks are under `maxTasksPerOwner`.
 */
export async function insertUnderLimit(
  pool: pg.Pool,
  sql: Statements,
  values: readonly unknown[],
  limits: OwnerLimits,
): Promise<boolean> {
  const client = await pool.connect().catch((error: unknown) => {
    throw limits.mapError(error);
  });
  try {
    await client.query('BEGIN');
    await client.query(sql.lockOwner, [values[1]]);
    if (limits.maxFinishedTasksPerOwner !== Number.POSITIVE_INFINITY) {
      await client.query(sql.evictFinished, [values[1], limits.maxFinishedTasksPerOwner]);
    }
    const inserted =
      limits.maxTasksPerOwner === Number.POSITIVE_INFINITY
        ? await client.query(sql.insert, [...values])
        : await client.query(sql.insertUnderLimit, [...values, limits.maxTasksPerOwner]);
    await client.query('COMMIT');
    return inserted.rowCount === 1;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw limits.mapError(error);
  } finally {
    client.release();
  }
}
