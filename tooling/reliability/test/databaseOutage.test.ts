/**
 * A database outage under load: two processes of the sample tool server on one PostgreSQL, OUTAGE_TASKS tasks in
 * flight, PostgreSQL stopped for OUTAGE_MS and started again on the same data directory and port. While it is down
 * every request either succeeds or gets a retryable error: HTTP 503 with `Retry-After`, a JSON-RPC `-32603` naming
 * the unavailable store, with `data.retryAfterSeconds`. Nothing acknowledged is lost, both processes serve again
 * without a restart, and every task completes with its tool's result.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase, type StartedPostgresServer, startPostgres } from '@mcp-tasks/postgres-harness';
import { mcpNameField } from '@mcp-tasks/transport-http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { figure, OUTAGE_MS, OUTAGE_SETTLE_BOUND_MS, OUTAGE_TASKS } from './budget.js';
import { TOOL_SERVER_MAIN } from './fixtureServer.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

/** What one HTTP request came back with. */
interface Reply {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly body: { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
  readonly ms: number;
}

let nextId = 1;
async function post(url: string, method: string, params: Record<string, unknown>): Promise<Reply> {
  const started = Date.now();
  const field = mcpNameField(method);
  const name: Record<string, string> = field === undefined ? {} : { 'mcp-name': String(params[field]) };
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...name,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: META } }),
  });
  const body = (await response.json()) as Reply['body'];
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body, ms: Date.now() - started };
}

/** A tool-server process on `store`; resolves once it listens. */
async function startInstance(id: string, store: string): Promise<{ url: string; child: ChildProcess }> {
  // The lease (30 s, the default) outlasts the outage: a tool finishing while the database is down keeps retrying
  // its outcome write under its lease instead of being declared a lost worker.
  const args = ['--transport', 'http', '--port', '0', '--tools', 'conformance', '--store', store];
  args.push('--instance-id', id, '--lease-ms', '30000', '--log-level', 'warn');
  const child = spawn(process.execPath, [TOOL_SERVER_MAIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanup.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void exited.then(() => reject(new Error(`instance ${id} exited before listening: ${stderr}`)));
  });
  return { url, child };
}

async function startDatabase(): Promise<{ db: StartedPostgresServer; url: string }> {
  const home = mkdtempSync(join(tmpdir(), 'reliability-outage-'));
  cleanup.push(() => rmSync(home, { recursive: true, force: true }));
  // A kept data directory: durable settings (fsync on), so a restart loses nothing a commit acknowledged.
  const db = await startPostgres({ dataDir: home });
  cleanup.push(() => db.stop());
  return { db, url: await freshDatabase(db.url, 'outage') };
}

/** A request answered during the outage: a success, or the retryable store error; anything else fails the test. */
function expectSuccessOrRetryable(reply: Reply, what: string): 'ok' | 'retryable' {
  if (reply.status === 200 && reply.body.result !== undefined) return 'ok';
  expect({ status: reply.status, retryAfter: reply.retryAfter, error: reply.body.error }, what).toMatchObject({
    status: 503,
    retryAfter: '1',
    error: {
      code: -32603,
      message: expect.stringMatching(/^Task store unavailable: PostgreSQL at 127\.0\.0\.1:\d+\/outage_/),
      data: { retryAfterSeconds: 1 },
    },
  });
  return 'retryable';
}

describe('PostgreSQL down under load', () => {
  it(`${OUTAGE_TASKS} tasks in flight and the database down ${OUTAGE_MS / 1000} s: retryable errors, nothing lost, every task completes`, async () => {
    const { db, url } = await startDatabase();
    const instances = [await startInstance('outage-a', url), await startInstance('outage-b', url)];
    const urls = instances.map((instance) => instance.url);
    const pids = instances.map((instance) => instance.child.pid);

    // Tasks whose tools end before, during and after the outage.
    const acknowledged = new Map<string, number>();
    const longest = Math.ceil(OUTAGE_MS / 1000) + 4;
    for (let i = 0; i < OUTAGE_TASKS; i++) {
      const seconds = 1 + (i % longest);
      const reply = await post(urls[i % 2] as string, 'tools/call', {
        name: 'slow_compute',
        arguments: { seconds, label: `t${i}` },
      });
      expect(reply.body.result, JSON.stringify(reply.body)).toMatchObject({ resultType: 'task' });
      acknowledged.set(reply.body.result?.taskId as string, seconds);
    }
    const someTask = [...acknowledged.keys()][0] as string;

    // The outage: both instances are asked, without pause, to start tasks and read one, until the database returns.
    const outcomes = { ok: 0, retryable: 0 };
    let longestMs = 0;
    const createdDuringOutage: string[] = [];
    await db.restart(async () => {
      const until = Date.now() + OUTAGE_MS;
      while (Date.now() < until) {
        // A round every 20 ms or so: steady traffic, not a busy loop on a shared machine.
        await new Promise((resolve) => setTimeout(resolve, 20));
        const replies = await Promise.all(
          urls.flatMap((instance) => [
            post(instance, 'tools/call', { name: 'slow_compute', arguments: { seconds: 1 } }),
            post(instance, 'tasks/get', { taskId: someTask }),
          ]),
        );
        for (const reply of replies) {
          outcomes[expectSuccessOrRetryable(reply, 'a request during the outage')]++;
          longestMs = Math.max(longestMs, reply.ms);
          const taskId = reply.body.result?.taskId;
          if (reply.body.result?.resultType === 'task' && typeof taskId === 'string') createdDuringOutage.push(taskId);
        }
      }
    });
    const restartedAt = Date.now();
    expect(outcomes.retryable).toBeGreaterThan(0);
    expect(longestMs).toBeLessThan(OUTAGE_SETTLE_BOUND_MS);

    // Both instances serve again on their own: same processes, no restart.
    await vi.waitFor(
      async () => {
        for (const instance of urls) expect((await post(instance, 'tasks/get', { taskId: someTask })).status).toBe(200);
      },
      { timeout: 30_000, interval: 100 },
    );
    const recoveryMs = Date.now() - restartedAt;
    expect(instances.map((instance) => [instance.child.pid, instance.child.exitCode])).toEqual(
      pids.map((pid) => [pid, null]),
    );

    // Every acknowledged task (before and during the outage) is found at either instance and completes.
    const all = [...acknowledged.keys(), ...createdDuringOutage];
    const completed = new Set<string>();
    await vi.waitFor(
      async () => {
        for (const [n, taskId] of all.entries()) {
          if (completed.has(taskId)) continue;
          const reply = await post(urls[n % 2] as string, 'tasks/get', { taskId });
          const task = reply.body.result;
          expect(task, JSON.stringify(reply.body)).toBeDefined();
          expect(task?.status, JSON.stringify(task)).not.toMatch(/failed|cancelled/);
          if (task?.status === 'completed') {
            expect(JSON.stringify(task.result)).toContain('Computed');
            completed.add(taskId);
          }
        }
        expect(completed.size).toBe(all.length);
      },
      { timeout: (longest + 30) * 1000, interval: 250 },
    );

    figure(
      'database outage: tasks in flight / created during the outage',
      `${acknowledged.size} / ${createdDuringOutage.length}`,
    );
    figure('database outage: down (ms)', OUTAGE_MS);
    figure('database outage: requests answered / refused 503 while down', `${outcomes.ok} / ${outcomes.retryable}`);
    figure('database outage: longest request while down (ms)', longestMs);
    figure('database outage: recovery after restart (ms)', recoveryMs);
    figure('database outage: tasks completed', completed.size);
  });
});
