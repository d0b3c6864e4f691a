import { freshDatabase } from '@mcp-tasks/postgres-harness';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PostgresTaskStore } from '../src/index.js';
import { statementsFor } from '../src/schema.js';

const TABLE = 'plans';
const sql = statementsFor(TABLE);
let client: pg.Client;

/** Inserts `count` working tasks of `owner` straight into the table (ids `<owner>-<n>`), one step each. */
async function seed(owner: string, count: number): Promise<void> {
  await client.query(
    `INSERT INTO ${TABLE} (task_id, owner, version, status, deadline, lease_until, record, seq)
     SELECT $1 || '-' || n, $1, 1, 'working', NULL, NULL,
       jsonb_build_object('taskId', $1 || '-' || n, 'createdAt', '2026-01-01T00:00:00.000Z'), nextval('${TABLE}_seq')
     FROM generate_series(1, $2::integer) AS n`,
    [owner, count],
  );
  await client.query(
    `INSERT INTO ${TABLE}_steps (task_id, name, attempt, bytes, result, completed_at, seq)
     SELECT $1 || '-' || n, 'first', 1, 2, '{}', 0, nextval('${TABLE}_seq') FROM generate_series(1, $2::integer) AS n`,
    [owner, count],
  );
}

beforeAll(async () => {
  const url = await freshDatabase(inject('postgresUrl'), 'plans');
  const store = new PostgresTaskStore({ connectionString: url, table: TABLE });
  await store.migrate();
  await store.close();
  client = new pg.Client({ connectionString: url });
  await client.connect();
  // The statistics know one owner; a second one arrives after the last ANALYZE, as a new principal does. No
  // autovacuum here: an ANALYZE of its own between the two would let the planner know the second owner too.
  await client.query(`ALTER TABLE ${TABLE} SET (autovacuum_enabled = false)`);
  await seed('known', 20_000);
  await client.query(`ANALYZE ${TABLE}; ANALYZE ${TABLE}_steps`);
  await seed('newcomer', 5_000);
  // Plans made for the parameters given, as with `preparedStatements: false` or the first runs of a prepared one.
  await client.query('SET plan_cache_mode = force_custom_plan');
});

afterAll(async () => {
  await client?.end();
});

/** The names of the indexes a statement's plan reads, for these parameters. */
async function indexesRead(text: string, values: unknown[]): Promise<string[]> {
  const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${text}`, values);
  const names: string[] = [];
  const walk = (node: Record<string, unknown>): void => {
    if (typeof node['Index Name'] === 'string') names.push(node['Index Name']);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  const [explained] = rows[0]['QUERY PLAN'] as [{ Plan: Record<string, unknown> }];
  walk(explained.Plan);
  return names;
}

const ID = 'newcomer-77';
const OWNER = 'newcomer';
const ROW = [2, 'completed', null, null, null, '{}', 'instance-a'];

describe('statements that find a task by id, for an owner the statistics do not know', () => {
  const cases: [string, string, unknown[]][] = [
    ['get', sql.get, [ID, OWNER]],
    ['getBatch', sql.getBatch, [[ID, 'newcomer-78'], [OWNER]]],
    ['swap', sql.swap, [ID, OWNER, 1, ...ROW]],
    ['swapSameTask', sql.swapSameTask, [ID, OWNER, 1, ...ROW, '2026-01-01T00:00:00.000Z']],
    ['recordStep', sql.recordStep, [ID, OWNER, 'worker-1', 'second', 1, 2, '{}', 1_000_000, 'instance-a']],
    ['steps', sql.steps, [ID, OWNER]],
  ];

  it.each(cases)('%s reads the task by its primary key, never by an owner index', async (_, text, values) => {
    const indexes = await indexesRead(text, values);
    expect(indexes).toContain(`${TABLE}_pkey`);
    expect(indexes.filter((name) => name.startsWith(`${TABLE}_owner`))).toEqual([]);
  });

  it('the plain condition would have read the owner index (what the statements avoid)', async () => {
    const plain = `SELECT record FROM ${TABLE} WHERE task_id = $1 AND owner = $2`;
    expect(await indexesRead(plain, [ID, OWNER])).toEqual([`${TABLE}_owner`]);
  });
});
