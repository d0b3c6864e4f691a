/**
 * Two tool-server processes (instances a and b) on one PostgreSQL, with a round-robin proxy in front as a load
 * balancer would be. Cases that need one instance in particular talk to it directly; the rest go through the proxy.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freshDatabase } from '@mcp-tasks/postgres-harness';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { type RoundRobinProxy, startRoundRobinProxy } from './roundRobinProxy.js';
import { killAllServers, LEASE_MS, type ServerProcess, startServer } from './serverProcesses.js';
import { answer, call, connectWs, listen, type Result, startTask, waitForTask } from './wire.js';

const CLIENT = fileURLToPath(new URL('../../../apps/polling-client/dist/main.js', import.meta.url));
const DEPLOY = { service: 'billing', version: '1.4.2' };
/** Hashing this much takes minutes: the tool is still running whatever the test does meanwhile. */
const ENDLESS = { megabytes: 60_000 };
const TERMINAL = ['completed', 'failed', 'cancelled'];

let store = '';
let a: ServerProcess;
let b: ServerProcess;
let proxy: RoundRobinProxy;
let dir = '';

beforeEach(async () => {
  store = await freshDatabase(inject('postgresUrl'), 'multi');
  // One at a time: the first creates the table, so the second never races its migration.
  a = await startServer('a', store);
  b = await startServer('b', store);
  proxy = await startRoundRobinProxy([a.url, b.url]);
  dir = mkdtempSync(join(tmpdir(), 'mcp-tasks-multi-'));
});

afterEach(async () => {
  await proxy.close();
  await killAllServers();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the real polling client against `url`; resolves with its exit code and output. */
async function client(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const journal = ['--journal', join(dir, 'journal.json')];
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLIENT, ...args, ...journal], {
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Consecutive duplicates removed (status notifications repeat a status with a new message). */
const changes = (statuses: string[]) => statuses.filter((status, i) => status !== statuses[i - 1]);

describe('two tool-server processes on one PostgreSQL', () => {
  it('a task created on A is read on B, raw and with the polling client, and listed through the proxy', async () => {
    const taskId = await startTask(a.url, 'checksum_data', ENDLESS);
    expect(await call(b.url, 'tasks/get', { taskId })).toMatchObject({ taskId, status: 'working' });
    const status = await client(['status', taskId, '--url', b.url, '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ taskId, status: 'working' });
    // Through the proxy every other request lands on each instance; all of them know the task.
    for (let i = 0; i < 4; i++) expect(await call(proxy.url, 'tasks/get', { taskId })).toMatchObject({ taskId });
    expect([...proxy.counts.values()]).toEqual([2, 2]);
  });

  it('an elicitation answered through B resumes the tool waiting on A', async () => {
    const taskId = await startTask(a.url, 'deploy_service', DEPLOY);
    const asked = await waitForTask(b.url, taskId, (task) => task.status === 'input_required');
    await answer(b.url, asked, { confirm: true, note: 'answered at b' });
    const done = await waitForTask(proxy.url, taskId, (task) => TERMINAL.includes(String(task.status)));
    expect(done).toMatchObject({ status: 'completed', result: { structuredContent: { ...DEPLOY } } });
    expect(JSON.stringify(done.result)).toContain('(note: answered at b)');
  });

  it('the polling client follows a task through the proxy (requests alternate) and answers its form', async () => {
    const answers = join(dir, 'answers.json');
    writeFileSync(answers, JSON.stringify({ confirm: true, note: 'via proxy' }));
    const run = await client([
      'call',
      'deploy_service',
      '--args',
      JSON.stringify(DEPLOY),
      ...['--url', proxy.url],
      ...['--answers', answers, '--json'],
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ structuredContent: { ...DEPLOY } });
    expect(run.stderr).toMatch(/^task \S+ created$/m);
    expect(Math.min(...proxy.counts.values())).toBeGreaterThan(0);
  });

  it('a cancel through B stops the tool on A; the polling client cancels across instances too', async () => {
    const taskId = await startTask(a.url, 'checksum_data', ENDLESS);
    await call(b.url, 'tasks/cancel', { taskId });
    expect(await waitForTask(a.url, taskId, (task) => task.status !== 'working')).toMatchObject({
      status: 'cancelled',
    });

    const second = await startTask(a.url, 'generate_report', { rows: 1_000_000_000 });
    const cancel = await client(['cancel', second, '--url', b.url]);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(await waitForTask(b.url, second, (task) => task.status !== 'working')).toMatchObject({
      status: 'cancelled',
    });
  });

  it('a listen stream held on B sees every status change of a task running on A', async () => {
    const taskId = await startTask(a.url, 'deploy_service', DEPLOY);
    const asked = await waitForTask(a.url, taskId, (task) => task.status === 'input_required');
    const stream = listen(b.url, [taskId]);
    const statuses = () =>
      stream.seen.filter((n) => n.method === 'notifications/tasks').map((n) => String(n.params.status));
    await vi.waitFor(() => expect(stream.seen.length).toBeGreaterThan(0));
    await answer(a.url, asked, { confirm: true });
    await vi.waitFor(() => expect(statuses()).toContain('completed'), { timeout: 20_000 });
    const seen = changes(statuses());
    expect(seen[0] === 'input_required' ? seen.slice(1) : seen).toEqual(['working', 'completed']);
    const last = stream.seen.filter((n) => n.method === 'notifications/tasks').at(-1);
    expect(last?.params).toMatchObject({ taskId, status: 'completed', result: { structuredContent: DEPLOY } });
    stream.close();
    await stream.done;
  });

  it('kill -9 of A while its tool runs leaves the task failed with the lost-worker error within the lease', async () => {
    const taskId = await startTask(a.url, 'checksum_data', ENDLESS);
    await waitForTask(b.url, taskId, (task) => task.status === 'working');
    await a.kill();
    const killedAt = Date.now();
    const failed = await waitForTask(proxy.url, taskId, (task) => task.status !== 'working');
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'Worker a stopped renewing its lease; the task was lost' },
    });
    // The lease was renewed at most a third of a lease before the kill; b's sweep runs every third of a lease.
    expect(Date.now() - killedAt).toBeLessThan(LEASE_MS * 3);
  });

  it('kill -9 of A while a resumable tool runs: B runs it again and completes it', async () => {
    const taskId = await startTask(a.url, 'deploy_service', DEPLOY);
    const asked = await waitForTask(a.url, taskId, (task) => task.status === 'input_required');
    await answer(a.url, asked, { confirm: true, note: 'resumed' });
    // A is rolling out (three stages with health checks): kill it mid-way.
    await waitForTask(a.url, taskId, (task) => String(task.statusMessage).startsWith('rolling out'));
    await a.kill();
    const done = await waitForTask(b.url, taskId, (task) => TERMINAL.includes(String(task.status)));
    expect(done).toMatchObject({ status: 'completed', result: { structuredContent: { ...DEPLOY } } });
    expect(JSON.stringify(done.result)).toContain('(note: resumed)');
  });

  it('restarting both servers loses no task: a completed result is still returned', async () => {
    const taskId = await startTask(proxy.url, 'deploy_service', DEPLOY);
    const asked = await waitForTask(proxy.url, taskId, (task) => task.status === 'input_required');
    await answer(proxy.url, asked, { confirm: true });
    const done = await waitForTask(proxy.url, taskId, (task) => task.status === 'completed');
    await Promise.all([a.stop(), b.stop()]);
    a = await startServer('a', store);
    b = await startServer('b', store);
    proxy.setUpstreams([a.url, b.url]);
    for (const url of [a.url, b.url, proxy.url]) {
      expect(await call(url, 'tasks/get', { taskId })).toEqual(done as Result);
    }
  });

  it('WebSocket: a client pinned to one instance sees the task another runs, and its cancel reaches it', async () => {
    const ws = await startServer('c', store, 'ws');
    const socket = await connectWs(ws.url);
    try {
      const taskId = await startTask(a.url, 'checksum_data', ENDLESS);
      expect(await socket.call('tasks/get', { taskId })).toMatchObject({ taskId, status: 'working' });
      await socket.call('tasks/cancel', { taskId });
      expect(await waitForTask(a.url, taskId, (task) => task.status !== 'working')).toMatchObject({
        status: 'cancelled',
      });
      expect(await socket.call('tasks/get', { taskId })).toMatchObject({ status: 'cancelled' });
    } finally {
      socket.close();
    }
  });
});
