import type { TaskRecord } from '@mcp-tasks/task-store';
import type pg from 'pg';
import { parseRecord } from './rows.js';
import { mapDatabaseError } from './unavailable.js';

/** Runs the store's statements on its pool: prepared by name where enabled, database errors mapped. */
export class StatementRunner {
  readonly #pool: pg.Pool;
  readonly #prepared: ReadonlyMap<string, string>;
  readonly #where: string;
  readonly #poolWaitTimeoutMs: number;

  /** `prepared`: the name each parameterised statement is prepared under, by its text; `where`: the database. */
  constructor(pool: pg.Pool, prepared: ReadonlyMap<string, string>, where: string, poolWaitTimeoutMs: number) {
    this.#pool = pool;
    this.#prepared = prepared;
    this.#where = where;
    this.#poolWaitTimeoutMs = poolWaitTimeoutMs;
  }

  /** The records (`record` column) a statement returns. */
  async records(text: string, values: readonly unknown[]): Promise<TaskRecord[]> {
    return (await this.run(text, values)).rows.map((row) => parseRecord(row.record as string));
  }

  /** Runs a statement; a database error rejects as `mapError` maps it. */
  async run(text: string, values: readonly unknown[]): Promise<pg.QueryResult> {
    try {
      return await this.query(text, values);
    } catch (error) {
      throw this.mapError(error);
    }
  }

  /** Runs a statement; errors as `pg` raises them. */
  query(text: string, values: readonly unknown[]): Promise<pg.QueryResult> {
    if (values.length === 0) return this.#pool.query(text);
    const name = this.#prepared.get(text);
    return name === undefined
      ? this.#pool.query(text, values as unknown[])
      : this.#pool.query({ name, text, values: values as unknown[] });
  }

  /** A database error as the store reports it (`TaskStoreUnavailableError` when the database cannot answer). */
  mapError(error: unknown): unknown {
    return mapDatabaseError(error, this.#where, this.#poolWaitTimeoutMs);
  }
}
