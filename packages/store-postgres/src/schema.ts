import { durableMigration, durableStatements } from './durableStatements.js';
import { ownerIs } from './ownerIs.js';

/** The terminal statuses as SQL: a row in one of them is never written again. */
const TERMINAL = `('completed', 'failed', 'cancelled')`;

/** Bytes of a record sent along with an expiry notification; a larger one is sent as a stub. */
const NOTIFY_RECORD_LIMIT = 6_000;

/**
 * How long the tombstone of an expired task is kept (10 minutes): a listening connection down for longer may miss
 * an expiry on reconnect (it still learns it when it next reads the task).
 */
export const TOMBSTONE_RETENTION_MS = 600_000;

/** Most bytes of a task id plus its owner, so a notification stays under PostgreSQL's 8000-byte payload limit. */
export const MAX_ID_AND_OWNER_BYTES = 1_500;

/** A lower-case SQL identifier, safe to put in statements unquoted. */
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,47}$/;

/** Every statement the store runs, for one table (and its sequence and notification channel of the same name). */
export interface Statements {
  readonly channel: string;
  readonly migrate: string;
  readonly insert: string;
  readonly insertUnderLimit: string;
  readonly evictFinished: string;
  readonly lockOwner: string;
  readonly get: string;
  readonly getBatch: string;
  readonly list: string;
  readonly listAfter: string;
  readonly getMany: string;
  readonly swap: string;
  readonly swapSameTask: string;
  readonly expireDue: string;
  readonly lapsedLeases: string;
  readonly claim: string;
  readonly recordStep: string;
  readonly steps: string;
  readonly changedSince: string;
  readonly highWater: string;
}

/** The database's clock in epoch ms (tombstone times do not depend on the `now` a caller passes). */
const NOW_MS = `(extract(epoch FROM clock_timestamp()) * 1000)::bigint`;

/** A task's creation time as the listing sorts it: the record's ISO 8601 text, compared byte by byte. */
const CREATED_AT = `(record->>'createdAt') COLLATE "C"`;

/** The rows a listing pages through: one owner's tasks not past their deadline. */
function listFrom(table: string): string {
  return `SELECT record::text AS record FROM ${table}
      WHERE owner = $1 AND (deadline IS NULL OR deadline > $2)`;
}

/**
 * The row columns every write sets, in parameter order after the id: owner, version, status, deadline, lease,
 * runnable time (durable work: when `claim` may take it), record.
 */
const WRITE_COLUMNS = 'task_id, owner, version, status, deadline, lease_until, runnable_at, record, seq';

/**
 * Builds the statements for `table`. Columns hold what the database queries by (owner, version, status, deadline,
 * lease end, change sequence); the record itself is one `jsonb` document. `seq` grows with every write, so a
 * listener that was disconnected can re-read what changed meanwhile.
 */
export function statementsFor(table: string): Statements {
  if (!IDENTIFIER.test(table)) {
    throw new TypeError(`Table name ${JSON.stringify(table)} must be a lower-case SQL identifier (a-z, 0-9, _)`);
  }
  const seq = `${table}_seq`;
  const expired = `${table}_expired`;
  // Payload: kind, seq, version, instance, task id, owner, and for an expiry the record when it fits (NOTIFY
  // payloads stop at 8000 bytes; create bounds the id and owner so the rest always fits).
  const notify = (kind: string, seqColumn: string, instance: string, record: string) =>
    `pg_notify('${table}', json_build_array('${kind}', ${seqColumn}, version, ${instance}::text, task_id, owner, ${record})::text)`;
  const recordIfSmall = `CASE WHEN octet_length(record::text) < ${NOTIFY_RECORD_LIMIT} THEN record END`;
  return {
    channel: table,
    migrate: migrationOf(table),
    insert: `INSERT INTO ${table} (${WRITE_COLUMNS})
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, nextval('${seq}'))`,
    insertUnderLimit: `INSERT INTO ${table} (${WRITE_COLUMNS})
      SELECT $1, $2, $3, $4, $5, $6, $7, $8::jsonb, nextval('${seq}')
      WHERE (SELECT count(*) FROM ${table} WHERE owner = $2 AND status NOT IN ${TERMINAL}) < $9`,
    // Finished tasks of an owner beyond the newest $2 become due now; the expiry sweep removes them with tombstones,
    // so listeners hear of them as of any expiry. Terminal rows are never written again, so `seq` is finish order.
    evictFinished: `UPDATE ${table} SET deadline = ${NOW_MS}
      WHERE task_id IN (
        SELECT task_id FROM ${table}
        WHERE owner = $1 AND status IN ${TERMINAL} AND (deadline IS NULL OR deadline > ${NOW_MS})
        ORDER BY seq DESC OFFSET $2)`,
    lockOwner: `SELECT pg_advisory_xact_lock(hashtext('${table}'), hashtext($1))`,
    get: `SELECT record::text AS record FROM ${table} WHERE task_id = $1 AND ${ownerIs('owner', '$2')}`,
    // Coalesced gets ($1 ids, $2 owners): the primary key's index finds the rows, the caller matches each exact
    // (id, owner) pair; the owner condition keeps most other owners' records off the wire.
    getBatch: `SELECT task_id, owner, record::text AS record FROM ${table}
      WHERE task_id = ANY($1::text[]) AND ${ownerIs('owner', 'ANY($2::text[])')}`,
    // Keyset pages in creation order ($1 owner, $2 now in epoch ms, $3 limit; listAfter: $4/$5 the last position).
    list: `${listFrom(table)} ORDER BY ${CREATED_AT}, task_id COLLATE "C" LIMIT $3`,
    listAfter: `${listFrom(table)} AND (${CREATED_AT}, task_id COLLATE "C") > ($4::text COLLATE "C", $5::text COLLATE "C")
      ORDER BY ${CREATED_AT}, task_id COLLATE "C" LIMIT $3`,
    getMany: `SELECT record::text AS record FROM ${table} WHERE task_id = ANY($1::text[])`,
    // The conditional write of every transition; the notification is sent when it commits.
    swap: swapOf(table, '', notify('u', 'seq', '$10', 'NULL')),
    // The same on a record the store remembered ($11 its creation time): an id can be used again after an expiry.
    swapSameTask: swapOf(table, ` AND record->>'createdAt' = $11`, notify('u', 'seq', '$10', 'NULL')),
    expireDue: expireDueOf(table, notify('x', 'expired_seq', '$3', recordIfSmall)),
    // Durable tasks (a runnable time) are recovered by `claim`, never reported here.
    lapsedLeases: `SELECT record::text AS record FROM ${table}
      WHERE lease_until <= $1 AND runnable_at IS NULL AND status NOT IN ${TERMINAL} ORDER BY lease_until LIMIT $2`,
    ...durableStatements(table, (instance) => notify('u', 'seq', instance, 'NULL')),
    // Writes and expiries after a sequence number, in sequence order (a tombstone has no record, only its task).
    changedSince: `SELECT seq, record::text AS record, NULL::text AS task_id, NULL::text AS owner, version
        FROM ${table} WHERE seq > $1
      UNION ALL
      SELECT seq, NULL::text, task_id, owner, version FROM ${expired} WHERE seq > $1
      ORDER BY seq LIMIT $2`,
    highWater: `SELECT last_value AS seq FROM ${seq}`,
  };
}

/**
 * The conditional write of a transition ($1 id, $2 owner, $3 expected version, $4-$9 the written columns, $10 the
 * instance), with a further `condition`; `notifyUpdate` is sent when it commits.
 */
function swapOf(table: string, condition: string, notifyUpdate: string): string {
  return `WITH written AS (
        UPDATE ${table} SET version = $4, status = $5, deadline = $6, lease_until = $7, runnable_at = $8,
          record = $9::jsonb, seq = nextval('${table}_seq')
        WHERE task_id = $1 AND ${ownerIs('owner', '$2')} AND version = $3 AND status NOT IN ${TERMINAL}${condition}
        RETURNING task_id, owner, version, seq)
      SELECT ${notifyUpdate} FROM written`;
}

/** The idempotent migration; serialised by an advisory lock so instances starting together do not race on CREATE. */
function migrationOf(table: string): string {
  const seq = `${table}_seq`;
  const expired = `${table}_expired`;
  return `
    SELECT pg_advisory_xact_lock(hashtext('${table}'));
    CREATE SEQUENCE IF NOT EXISTS ${seq};
    CREATE TABLE IF NOT EXISTS ${table} (
      task_id text PRIMARY KEY,
      owner text NOT NULL,
      version integer NOT NULL,
      status text NOT NULL,
      deadline bigint,
      lease_until bigint,
      record jsonb NOT NULL,
      seq bigint NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${table}_deadline ON ${table} (deadline) WHERE deadline IS NOT NULL;
    CREATE INDEX IF NOT EXISTS ${table}_lease ON ${table} (lease_until) WHERE lease_until IS NOT NULL;
    CREATE INDEX IF NOT EXISTS ${table}_owner ON ${table} (owner);
    CREATE INDEX IF NOT EXISTS ${table}_owner_created ON ${table} (owner, ${CREATED_AT}, task_id COLLATE "C");
    CREATE INDEX IF NOT EXISTS ${table}_seq_idx ON ${table} (seq);
    CREATE TABLE IF NOT EXISTS ${expired} (
      seq bigint PRIMARY KEY,
      task_id text NOT NULL,
      owner text NOT NULL,
      version integer NOT NULL,
      expired_at bigint NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${expired}_at ON ${expired} (expired_at);
    ${durableMigration(table)}`;
}

/**
 * Several instances sweep at once without waiting on each other's rows. Each deleted task leaves a tombstone
 * (numbered from the same sequence as writes, in the same statement) so a listener that was disconnected learns
 * of the expiry on reconnect; tombstones older than the retention are pruned here too, a batch per call.
 */
function expireDueOf(table: string, notifyExpiry: string): string {
  const seq = `${table}_seq`;
  const expired = `${table}_expired`;
  return `WITH due AS (
        SELECT task_id FROM ${table} WHERE deadline <= $1 ORDER BY deadline LIMIT $2 FOR UPDATE SKIP LOCKED),
      removed AS (
        DELETE FROM ${table} t USING due WHERE t.task_id = due.task_id
        RETURNING t.task_id, t.owner, t.version, t.record),
      tombstones AS (
        INSERT INTO ${expired} (seq, task_id, owner, version, expired_at)
        SELECT nextval('${seq}'), task_id, owner, version, ${NOW_MS} FROM removed
        RETURNING seq AS expired_seq, task_id),
      pruned AS (
        DELETE FROM ${expired} WHERE seq IN (
          SELECT seq FROM ${expired} WHERE expired_at < ${NOW_MS} - ${TOMBSTONE_RETENTION_MS}
          ORDER BY expired_at LIMIT $2 FOR UPDATE SKIP LOCKED))
      SELECT record::text AS record, expired_seq, ${notifyExpiry}
      FROM removed JOIN tombstones USING (task_id)`;
}
