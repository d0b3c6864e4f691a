import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * PostgreSQL's own limit on this machine, as the store's goals are stated against it: `pgbench` (the binary
 * `BENCH_PGBENCH` names, else `pgbench` on `PATH`: Debian's `postgresql-client`; the embedded PostgreSQL ships only
 * `initdb`, `pg_ctl` and `postgres`) on the same database, with as many clients as the store has callers.
 */
export class Pgbench {
  /** Resolves with a runner, or undefined (with the reason) when no `pgbench` can be run. */
  static async find(url) {
    const binary = process.env.BENCH_PGBENCH ?? 'pgbench';
    try {
      await run(binary, ['--version']);
    } catch (error) {
      return { missing: `${binary}: ${error.code ?? error.message}` };
    }
    const pgbench = new Pgbench(binary, url);
    // pgbench_accounts at scale 1 (100,000 rows) for `-S`; the store's table exists already (the store migrated it).
    await run(binary, ['-i', '-s', '1', '-q', '-I', 'dtgvp', url]);
    return { pgbench };
  }

  constructor(binary, url) {
    this.binary = binary;
    this.url = url;
    this.dir = mkdtempSync(join(tmpdir(), 'mcp-tasks-pgbench-'));
  }

  /** `pgbench -S -M prepared`: one select by primary key per transaction; resolves with transactions per second. */
  selectOnly(clients, seconds) {
    return this.#tps(['-S'], clients, seconds);
  }

  /**
   * A prepared script of the shape of the store's create → complete on the store's own `table`: the insert of a
   * working task with its JSON record, then the conditional update to `completed` that notifies, as
   * `PostgresTaskStore.create` and its `swap` send them (one round trip each). Transactions per second. The
   * notification goes to a channel of its own: on the store's channel the store's listener would fetch every
   * pgbench task it heard of, work that is not pgbench's and that slowed both sides.
   */
  createComplete(table, clients, seconds) {
    const script = join(this.dir, 'create-complete.sql');
    writeFileSync(script, createCompleteScript(table));
    return this.#tps(['-f', script], clients, seconds);
  }

  async #tps(args, clients, seconds) {
    const threads = String(Math.min(clients, 2));
    const { stdout, stderr } = await run(this.binary, [
      ...args,
      '-M',
      'prepared',
      '-n',
      '-c',
      String(clients),
      '-j',
      threads,
      '-T',
      // Whole seconds; at least 2, since 32 clients connecting can take most of a first second on a loaded machine.
      String(Math.max(2, Math.round(seconds))),
      this.url,
    ]);
    const tps = stdout.match(/^tps = ([\d.]+)/m);
    if (tps === null) throw new Error(`pgbench printed no tps:\n${stdout}\n${stderr}`);
    return Number(tps[1]);
  }

  close() {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A record of the size the store writes for a working task, and for the same task completed with a result. */
const WORKING = JSON.stringify({
  taskId: 'pgbench-00000000000000000000000000',
  owner: 'pgbench',
  status: 'working',
  version: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUpdatedAt: '2026-01-01T00:00:00.000Z',
  ttlMs: 1000,
  pollIntervalMs: 1000,
});
const COMPLETED = JSON.stringify({
  ...JSON.parse(WORKING),
  status: 'completed',
  version: 2,
  result: { content: [{ type: 'text', text: 'ok' }] },
});

/**
 * The statements `PostgresTaskStore` sends for create → complete: the insert, then the conditional update with its
 * notification, on condition of the version and the creation time (`swapSameTask`, the write of `update` from the
 * record the store remembered). The owner condition has the store's shape (`ownerIs`): written `owner = 'pgbench'`,
 * a literal the statistics did not know yet (the table's last ANALYZE saw only the store's tasks), the planner read
 * the update's row through the owner index, past every pgbench task before it, and pgbench fell from 6–7k tps to
 * 400–500 tps within a few runs. That was the collapsed baseline of the full run of 2026-11-29 08:05.
 */
function createCompleteScript(table) {
  const id = `'pgbench-' || :client_id || '-' || :n`;
  return `\\set n random(1, 1000000000000)
INSERT INTO ${table} (task_id, owner, version, status, deadline, lease_until, record, seq)
  VALUES (${id}, 'pgbench', 1, 'working', NULL, NULL, '${WORKING}'::jsonb, nextval('${table}_seq'));
WITH written AS (
  UPDATE ${table} SET version = 2, status = 'completed', deadline = NULL, lease_until = NULL,
    record = '${COMPLETED}'::jsonb, seq = nextval('${table}_seq')
  WHERE task_id = ${id} AND (owner = 'pgbench') IS TRUE AND version = 1 AND status NOT IN ('completed', 'failed', 'cancelled')
    AND record->>'createdAt' = '2026-01-01T00:00:00.000Z'
  RETURNING task_id, owner, version, seq)
SELECT pg_notify('${table}_pgbench', json_build_array('u', seq, version, 'pgbench'::text, task_id, owner, NULL)::text)
  FROM written;
`;
}
