/**
 * Durable execution with real processes on one PostgreSQL: kill -9 of the worker at many points of a multi-step
 * tool, a parked task across the restart of every instance, and a rolling restart of three instances under load.
 * "No completed step ran twice" is read from the servers' own logs: each instance logs every step it records
 * (`"type":"step","replayed":false`); a step that ran again after completing would be recorded (and logged) twice.
 */
import { freshDatabase } from '@mcp-tasks/postgres-harness';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { LegacyHttpClient } from './legacyWire.js';
import { killAllServers, type ServerProcess, startServer } from './serverProcesses.js';
import { answer, type Result, startTask, waitForTask } from './wire.js';

/** Kill -9 runs (the issue asks for at least 20; `DURABLE_KILL_RUNS` raises it for a soak). */
const KILL_RUNS = Number(process.env.DURABLE_KILL_RUNS ?? 20);
const TERMINAL = ['completed', 'failed', 'cancelled'];
/** Instances log their execution events (info) so the test can count step executions. */
const LOGGED = ['--log-level', 'info'];

let store = '';
const started: ServerProcess[] = [];

beforeEach(async () => {
  store = await freshDatabase(inject('postgresUrl'), 'durable');
});

afterEach(async () => {
  await killAllServers();
  started.length = 0;
});

async function instance(id: string, extra: readonly string[] = []): Promise<ServerProcess> {
  const server = await startServer(id, store, 'http', [...LOGGED, ...extra]);
  started.push(server);
  return server;
}

interface StepLine {
  readonly type: string;
  readonly taskId: string;
  readonly step?: string;
  readonly replayed?: boolean;
}

/** Every execution event logged by every instance started in this test (killed ones included). */
function events(): StepLine[] {
  const lines: StepLine[] = [];
  for (const server of started) {
    for (const line of server.stderr().split('\n')) {
      if (!line.startsWith('{')) continue;
      const parsed = JSON.parse(line) as Partial<StepLine>;
      if (typeof parsed.type === 'string' && typeof parsed.taskId === 'string') lines.push(parsed as StepLine);
    }
  }
  return lines;
}

/** How often each step of `taskId` was run and recorded, by name. */
function recordedSteps(taskId: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const event of events()) {
    if (event.taskId !== taskId || event.type !== 'step' || event.replayed !== false) continue;
    counts.set(event.step ?? '', (counts.get(event.step ?? '') ?? 0) + 1);
  }
  return counts;
}

const isTerminal = (task: Result) => TERMINAL.includes(String(task.status));

/** A small deterministic generator (mulberry32), so every run kills at the same points. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('durable execution across processes', () => {
  it(`kill -9 of the worker at ${KILL_RUNS} points of a multi-step tool: every task completes, no completed step runs twice`, async () => {
    const survivor = await instance('survivor');
    const next = random(2663);
    const tasks: string[] = [];
    for (let run = 0; run < KILL_RUNS; run++) {
      const doomed = await instance(`doomed-${run}`);
      const args = { database: `db${run}`, tables: 3, tableMegabytes: 1, lockBusyOnce: false };
      const taskId = await startTask(doomed.url, 'migrate_database', args);
      tasks.push(taskId);
      // A kill point: after 0 to 3 recorded steps, then somewhere inside the next step.
      const after = run % 4;
      await vi.waitFor(() => expect(sum(recordedSteps(taskId))).toBeGreaterThanOrEqual(after), { timeout: 20_000 });
      await new Promise((resolve) => setTimeout(resolve, Math.floor(next() * 300)));
      await doomed.kill();
    }
    for (const taskId of tasks) {
      const done = await waitForTask(survivor.url, taskId, isTerminal);
      expect(done, taskId).toMatchObject({ status: 'completed', result: { structuredContent: { tables: 3 } } });
      const counts = recordedSteps(taskId);
      for (const [step, count] of counts) expect(count, `${taskId} ${step}`).toBe(1);
    }
    // The kills did cut runs short: some tasks ran more than once, replaying what completed before.
    expect(events().filter((event) => event.type === 'step' && event.replayed === true).length).toBeGreaterThan(0);
  }, 240_000);

  it('a task parked for input survives the restart of every instance, and the answer completes it', async () => {
    const park = ['--park-after-ms', '200'];
    const a = await instance('a', park);
    const b = await instance('b', park);
    const deploy = { service: 'billing', version: '2.0.0' };
    const taskId = await startTask(a.url, 'deploy_service', deploy);
    await vi.waitFor(() => expect(events()).toContainEqual(expect.objectContaining({ type: 'parked', taskId })), {
      timeout: 20_000,
    });
    await a.stop();
    await b.stop();
    const c = await instance('c', park);
    const d = await instance('d', park);
    const asked = await waitForTask(c.url, taskId, (task) => task.status === 'input_required');
    await answer(d.url, asked, { confirm: true, note: 'after the restart' });
    const done = await waitForTask(c.url, taskId, isTerminal);
    expect(done).toMatchObject({ status: 'completed', result: { structuredContent: deploy } });
    expect(recordedSteps(taskId).get('build')).toBe(1);
  }, 120_000);

  it('L-T12: a 2025-era client: its parked task survives the restart of every instance; tasks/result in a new session asks and completes it', async () => {
    const options = ['--park-after-ms', '200', '--token', 'e2e-token'];
    const a = await instance('a', options);
    const b = await instance('b', options);
    const deploy = { service: 'ledger', version: '3.1.0' };
    const first = new LegacyHttpClient(a.url, 'e2e-token');
    await first.connect();
    const created = await first.request('tools/call', { name: 'deploy_service', arguments: deploy, task: {} });
    const taskId = (created.task as Result).taskId as string;
    await vi.waitFor(() => expect(events()).toContainEqual(expect.objectContaining({ type: 'parked', taskId })), {
      timeout: 20_000,
    });
    await a.stop();
    await b.stop();
    const c = await instance('c', options);
    await instance('d', options);
    // The task belongs to the token's principal, so the new session sees it.
    const client = new LegacyHttpClient(c.url, 'e2e-token');
    await client.connect();
    const asked: unknown[] = [];
    const result = await client.request('tasks/result', { taskId }, (request) => {
      asked.push(request);
      return { action: 'accept', content: { confirm: true, note: 'after the restart' } };
    });
    const related = { 'io.modelcontextprotocol/related-task': { taskId } };
    expect(asked).toEqual([
      expect.objectContaining({ method: 'elicitation/create', params: expect.objectContaining({ _meta: related }) }),
    ]);
    expect(result).toMatchObject({ structuredContent: deploy, _meta: related });
    const counts = recordedSteps(taskId);
    expect(counts.get('build')).toBe(1);
    for (const [step, count] of counts) expect(count, step).toBe(1);
  }, 60_000);

  it('a rolling restart of three instances with 300 tasks in flight loses none and re-runs no completed step', async () => {
    const options = ['--drain-ms', '2000', '--concurrency', '200'];
    const ids = ['r1', 'r2', 'r3'];
    const live = await Promise.all(ids.map((id) => instance(id, options)));
    const args = (i: number) => ({ database: `roll${i}`, tables: 12, tableMegabytes: 0, lockBusyOnce: false });
    const tasks = await Promise.all(
      Array.from({ length: 300 }, (_, i) => startTask((live[i % 3] as ServerProcess).url, 'migrate_database', args(i))),
    );
    for (const [index, id] of ids.entries()) {
      await (live[index] as ServerProcess).stop();
      live[index] = await instance(`${id}-next`, options);
    }
    const url = (live[0] as ServerProcess).url;
    for (const taskId of tasks) {
      expect(await waitForTask(url, taskId, isTerminal), taskId).toMatchObject({ status: 'completed' });
      const counts = recordedSteps(taskId);
      // On a miss, the task's own log lines say which instance ran what (a rare miss was seen once, unexplained).
      const trail = () => JSON.stringify(events().filter((event) => event.taskId === taskId));
      expect(counts.size, `${taskId}: ${counts.size === 13 ? '' : trail()}`).toBe(13);
      for (const [step, count] of counts) expect(count, `${taskId} ${step}`).toBe(1);
    }
    expect(events().filter((event) => event.type === 'handed_back').length).toBeGreaterThan(0);
  }, 240_000);
});

function sum(counts: Map<string, number>): number {
  let total = 0;
  for (const count of counts.values()) total += count;
  return total;
}
