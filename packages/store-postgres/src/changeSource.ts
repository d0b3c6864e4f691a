import { encodeText } from './nulSafe.js';
import type { ChangeSource } from './postgresChangeFeed.js';
import { changeOf } from './rows.js';
import type { Statements } from './schema.js';
import type { StatementRunner } from './statementRunner.js';

/** The change feed's reads of the store's table: current records by id, and the changes after a sequence number. */
export function changeSourceOf(runner: StatementRunner, sql: Statements, instanceId: string): ChangeSource {
  return {
    instanceId,
    fetch: (ids) => runner.records(sql.getMany, [ids.map(encodeText)]),
    changedSince: async (seq, limit) => (await runner.query(sql.changedSince, [seq, limit])).rows.map(changeOf),
  };
}
