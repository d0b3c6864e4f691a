/**
 * The database-restart fault: two servers on one PostgreSQL (each with its own `PostgresTaskStore`), task traffic
 * from a few loops, and the database stopped and started again on the same data directory and port under load.
 * Requests during the outage must fail with a clear `-32603` within a bound, both servers must serve again on
 * their own, and every task whose creation was acknowledged must still be found and end in one terminal state.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpClient } from '@mcp-tasks/client';
import { freshDatabase, type StartedPostgresServer, startPostgres } from '@mcp-tasks/postgres-harness';
import { isUnavailable, PostgresTaskStore, TaskStoreUnavailableError } from '@mcp-tasks/store-postgres';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DATABASE_RESTARTS, figure, OUTAGE_SETTLE_BOUND_MS } from './budget.js';
import { connectClient, type ServedFixture, serveFixture } from './fixtureServer.js';
import { answerAll, runTaskLoad } from './taskLoad.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
/** Requests failed during one outage before the database comes back (the outage lasts until then). */
const FAILURES_PER_OUTAGE = 8;

/** A connection error, possibly wrapped: what a database restart is expected to cause. */
function isConnectionError(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e instanceof TaskStoreUnavailableError || isUnavailable(e)) return true;
    if (/listening connection to PostgreSQL ended|terminating connection/i.test(e.message)) return true;
  }
  return false;
}

/** Why a task did not end as its tool meant it to (a failure, or a tool error result); undefined when it did. */
function abnormalEnd(task: { status: string; error?: { message?: string }; result?: unknown }): string | undefined {
  if (task.status === 'failed') return `failed: ${task.error?.message ?? '?'}`;
  const result = task.result as { isError?: boolean; content?: { text?: string }[] } | undefined;
  if (result?.isError === true) return `tool error: ${result.content?.[0]?.text ?? '?'}`;
  return undefined;
}

async function startDatabase(): Promise<{ db: StartedPostgresServer; url: string }> {
  const home = mkdtempSync(join(tmpdir(), 'reliability-pg-'));
  cleanup.push(() => rmSync(home, { recursive: true, force: true }));
  // A kept data directory: durable settings (fsync on), so a restart loses nothing a commit acknowledged.
  const db = await startPostgres({ dataDir: home });
  cleanup.push(() => db.stop());
  return { db, url: await freshDatabase(db.url, 'restart') };
}

async function serveOnDatabase(url: string, workerId: string, storeErrors: unknown[]): Promise<ServedFixture> {
  const store = new PostgresTaskStore({
    connectionString: url,
    connectTimeoutMs: 1_000,
    statementTimeoutMs: 2_000,
    onError: (error) => storeErrors.push(error),
  });
  await store.migrate();
  const fixture = await serveFixture({
    server: { taskStore: store, closeTaskStore: true, tasks: { workerId, leaseMs: 4_000 } },
  });
  cleanup.push(() => fixture.close());
  return fixture;
}

/** Both servers create, read and answer tasks again: polled until they do, without any reconnect by the test. */
async function untilServing(probes: readonly McpClient[]): Promise<void> {
  await vi.waitFor(
    async () => {
      for (const client of probes) {
        const started = await client.startTool('slow', { ms: 1 });
        if (started.kind !== 'task') throw new Error('expected a task');
        await client.getTask(started.task.taskId);
      }
    },
    { timeout: 20_000, interval: 50 },
  );
}

describe('PostgreSQL restarted under load', () => {
  it('loses no acknowledged task, fails outage requests with -32603 in time and recovers on its own', async () => {
    const { db, url } = await startDatabase();
    const storeErrors: unknown[] = [];
    const fixtures = [
      await serveOnDatabase(url, 'worker-a', storeErrors),
      await serveOnDatabase(url, 'worker-b', storeErrors),
    ];
    const clients = await Promise.all([0, 1, 2, 3].map((i) => connectClient('http', fixtures[i % 2] as ServedFixture)));
    const probes = await Promise.all(fixtures.map((fixture) => connectClient('http', fixture)));
    cleanup.push(() => Promise.all([...clients, ...probes].map((client) => client.close())));

    const load = runTaskLoad(clients);
    const { record } = load;
    const recoveries: number[] = [];
    try {
      for (let restart = 0; restart < DATABASE_RESTARTS; restart++) {
        const before = record.acknowledged.size;
        await vi.waitFor(() => expect(record.acknowledged.size).toBeGreaterThanOrEqual(before + 20), {
          timeout: 20_000,
          interval: 20,
        });
        const failedBefore = record.failed.length;
        await db.restart(() =>
          vi.waitFor(() => expect(record.failed.length).toBeGreaterThanOrEqual(failedBefore + FAILURES_PER_OUTAGE), {
            timeout: 20_000,
            interval: 20,
          }),
        );
        const restartedAt = Date.now();
        await untilServing(probes);
        recoveries.push(Date.now() - restartedAt);
      }
      const after = record.acknowledged.size;
      await vi.waitFor(() => expect(record.acknowledged.size).toBeGreaterThanOrEqual(after + 20), {
        timeout: 20_000,
        interval: 20,
      });
    } finally {
      load.stop();
      await load.done;
    }

    // Every failure was a clear -32603 naming the unavailable store, and settled within the bound.
    for (const failure of record.failed) {
      expect(failure.error, failure.method).toMatchObject({
        code: -32603,
        message: expect.stringMatching(/Task store unavailable: PostgreSQL at 127\.0\.0\.1:\d+\/restart_/),
      });
    }
    expect(record.longestMs).toBeLessThan(OUTAGE_SETTLE_BOUND_MS);

    // Every acknowledged task is still there, at either server, and ends in one terminal state.
    const outcomes = new Map<string, string>();
    const reasons = new Map<string, number>();
    await vi.waitFor(
      async () => {
        for (const [taskId] of record.acknowledged) {
          if (outcomes.has(taskId)) continue;
          const client = probes[outcomes.size % 2] as McpClient;
          const task = await client.getTask(taskId);
          if (task.status === 'input_required') await answerAll(client, task);
          if (TERMINAL.has(task.status)) {
            outcomes.set(taskId, task.status);
            const reason = abnormalEnd(task);
            if (reason !== undefined) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
          }
        }
        expect(outcomes.size).toBe(record.acknowledged.size);
      },
      { timeout: 20_000, interval: 100 },
    );
    for (const [taskId, status] of outcomes) {
      for (const probe of probes) expect((await probe.getTask(taskId)).status, taskId).toBe(status);
    }

    // A tool that finishes while the database is down retries its outcome write while it holds the lease; only
    // when the outage outlasts the lease does the sweep end the task with the lost-worker error. No other abnormal
    // end is expected.
    for (const reason of reasons.keys()) {
      expect(reason).toMatch(/^failed: Worker worker-[ab] stopped renewing its lease|Task store unavailable/);
    }

    const unexpected = [...fixtures.flatMap((fixture) => fixture.errors), ...storeErrors].filter(
      (error) => !isConnectionError(error),
    );
    expect(unexpected).toEqual([]);

    const statuses = [...outcomes.values()];
    const tally = (status: string) => statuses.filter((s) => s === status).length;
    figure('database restarts under load', DATABASE_RESTARTS);
    figure('database restart: requests settled / failed', `${record.settled} / ${record.failed.length}`);
    const failedBy = (method: string) => record.failed.filter((failure) => failure.method === method).length;
    figure(
      'database restart: failed tools/call / tasks/get / tasks/update',
      `${failedBy('tools/call')} / ${failedBy('tasks/get')} / ${failedBy('tasks/update')}`,
    );
    figure('database restart: tasks acknowledged (all found again)', record.acknowledged.size);
    figure(
      'database restart: ended completed / failed / cancelled',
      `${tally('completed')} / ${tally('failed')} / ${tally('cancelled')}`,
    );
    figure('database restart: abnormal ends', JSON.stringify([...reasons]));
    figure('database restart: longest request (ms)', record.longestMs);
    figure('database restart: recovery after restart (ms)', recoveries.join(', '));
    figure(
      'database restart: connection errors reported to onError',
      fixtures.reduce((n, fixture) => n + fixture.errors.length, storeErrors.length),
    );
  });
});
