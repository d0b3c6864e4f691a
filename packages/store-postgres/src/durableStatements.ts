/** The statements of durable execution (claiming, step results) for one table; see `statementsFor`. */
import { ownerIs } from './ownerIs.js';

const TERMINAL = `('completed', 'failed', 'cancelled')`;
const NOW_MS = `(extract(epoch FROM clock_timestamp()) * 1000)::bigint`;

/**
 * Brings a table created before durable execution up to date (idempotent, run by every migration): the runnable
 * time column (NULL for every existing task, which is right: none of them is durable), its index, and the step table,
 * whose rows go with their task (`ON DELETE CASCADE`: an expiry removes them in the same statement).
 */
export function durableMigration(table: string): string {
  return `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS runnable_at bigint;
      CREATE INDEX IF NOT EXISTS ${table}_runnable ON ${table} (runnable_at) WHERE runnable_at IS NOT NULL;
      CREATE TABLE IF NOT EXISTS ${table}_steps (
        task_id text NOT NULL REFERENCES ${table} (task_id) ON DELETE CASCADE,
        name text NOT NULL,
        attempt integer NOT NULL,
        bytes integer NOT NULL,
        result jsonb NOT NULL,
        completed_at bigint NOT NULL,
        seq bigint NOT NULL,
        PRIMARY KEY (task_id, name)
      );`;
}

/** Most steps a record lists (`MAX_LISTED_STEPS` of task-store). */
const LISTED = 100;

/**
 * `claim`, `recordStep` and `steps`, each one statement (one round trip). `notify(instance)` is the change
 * notification of a write, with `instance` the parameter holding the writing instance.
 */
export function durableStatements(
  table: string,
  notify: (instance: string) => string,
): { readonly claim: string; readonly recordStep: string; readonly steps: string } {
  const steps = `${table}_steps`;
  const listed = `coalesce(t.record #> '{execution,steps}', '[]'::jsonb)`;
  return {
    // $1 now, $2 limit, $3 lease end, $4 worker, $5 instance. SKIP LOCKED: concurrent claims of any instance take
    // disjoint rows without waiting on each other; the row's runnable time is re-checked under the lock.
    claim: `WITH picked AS (
        SELECT task_id FROM ${table} WHERE runnable_at <= $1::bigint ORDER BY runnable_at LIMIT $2 FOR UPDATE SKIP LOCKED),
      claimed AS (
        UPDATE ${table} t SET version = t.version + 1, lease_until = $3::bigint, runnable_at = $3::bigint, seq = nextval('${table}_seq'),
          record = t.record || jsonb_build_object(
            'version', t.version + 1,
            'lease', jsonb_build_object('worker', $4::text, 'until', $3::bigint),
            'execution', jsonb_strip_nulls(jsonb_build_object('state', 'running',
              'attempt', coalesce((t.record #>> '{execution,attempt}')::integer, 0) + 1,
              'steps', t.record #> '{execution,steps}')))
        FROM picked WHERE t.task_id = picked.task_id AND t.runnable_at <= $1::bigint AND t.status NOT IN ${TERMINAL}
        RETURNING t.task_id, t.owner, t.version, t.seq, t.record)
      SELECT record::text AS record, ${notify('$5')} FROM claimed`,
    // $1 task, $2 owner, $3 worker, $4 name, $5 attempt, $6 bytes, $7 result, $8 most bytes per task, $9 instance.
    // Only the lease holder's current run (attempt) of a live task writes; a recorded name returns the stored step
    // (first write wins). A fresh step is listed in the task's record too (clients see it), announced like any write.
    recordStep: `WITH task AS (
        SELECT task_id FROM ${table} WHERE task_id = $1 AND ${ownerIs('owner', '$2')} AND status NOT IN ${TERMINAL}
          AND record #>> '{lease,worker}' = $3 AND coalesce((record #>> '{execution,attempt}')::integer, 0) = $5::integer),
      existing AS (
        SELECT s.name, s.attempt, s.result::text AS result, s.completed_at FROM ${steps} s JOIN task USING (task_id)
        WHERE s.name = $4),
      total AS (SELECT coalesce(sum(bytes), 0) AS bytes FROM ${steps} WHERE task_id = $1),
      inserted AS (
        INSERT INTO ${steps} (task_id, name, attempt, bytes, result, completed_at, seq)
        SELECT $1, $4, $5::integer, $6::integer, $7::jsonb, ${NOW_MS}, nextval('${table}_seq') FROM task, total
        WHERE NOT EXISTS (SELECT 1 FROM existing) AND total.bytes + $6::integer <= $8::bigint
        ON CONFLICT (task_id, name) DO NOTHING
        RETURNING name, attempt, result::text AS result, completed_at),
      noted AS (
        UPDATE ${table} t SET version = t.version + 1, seq = nextval('${table}_seq'),
          record = jsonb_set(t.record || jsonb_build_object('version', t.version + 1), '{execution,steps}',
            CASE WHEN jsonb_array_length(${listed}) < ${LISTED}
              THEN ${listed} || jsonb_build_array(jsonb_build_object('name', $4::text, 'attempt', $5::integer))
              ELSE ${listed} END)
        FROM inserted WHERE t.task_id = $1
        RETURNING t.task_id, t.owner, t.version, t.seq, t.record),
      announced AS (SELECT record::text AS record, ${notify('$9')} FROM noted)
      SELECT 'fresh' AS outcome, name, attempt, result, completed_at, (SELECT record FROM announced) AS record
        FROM inserted
      UNION ALL SELECT 'stored', name, attempt, result, completed_at, NULL FROM existing
      UNION ALL SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM task) THEN 'not_held'
          WHEN (SELECT bytes FROM total) + $6::integer > $8::bigint THEN 'too_large' ELSE 'raced' END, NULL, NULL, NULL, NULL, NULL
        WHERE NOT EXISTS (SELECT 1 FROM inserted) AND NOT EXISTS (SELECT 1 FROM existing)`,
    steps: `SELECT s.name, s.attempt, s.result::text AS result, s.completed_at
      FROM ${steps} s JOIN ${table} t USING (task_id) WHERE s.task_id = $1 AND ${ownerIs('t.owner', '$2')} ORDER BY s.seq`,
  };
}
