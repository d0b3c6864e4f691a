/**
 * Faults: a task store that fails or stalls under a running server, and SIGTERM to the sample tool server under
 * load. The database-restart fault of the PostgreSQL store is in `databaseRestart.test.ts`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { McpClient } from '@mcp-tasks/client';
import { TransportError } from '@mcp-tasks/protocol';
import { HttpClientTransport } from '@mcp-tasks/transport-http/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { count, figure } from './budget.js';
import { faultyStore } from './faultyStore.js';
import { connectClient, type ServedFixture, serveFixture, TOOL_SERVER_MAIN } from './fixtureServer.js';

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

describe('a failing or stalling task store', () => {
  it('gives clear errors while failing, corrupts no task, and serves normally once healed', async () => {
    const faults = faultyStore();
    const fixture: ServedFixture = await serveFixture({ server: { taskStore: faults.store } });
    cleanup.push(() => fixture.close());
    const client = await connectClient('http', fixture);
    cleanup.push(() => client.close());

    // A task started before the fault, parked on input.
    const before = await client.startTool('confirm', {});
    if (before.kind !== 'task') throw new Error('expected a task');
    const taskId = before.task.taskId;
    await vi.waitFor(async () => expect((await client.getTask(taskId)).status).toBe('input_required'));

    faults.set('fail');
    const failures = await Promise.allSettled([
      client.startTool('slow', { ms: 10 }),
      client.getTask(taskId),
      client.cancelTask(taskId),
      client.updateTask(taskId, { nope: { action: 'accept', content: {} } }),
    ]);
    for (const outcome of failures) {
      expect(outcome.status).toBe('rejected');
      // A clear JSON-RPC error reached the client (no hang, no dropped connection).
      expect((outcome as PromiseRejectedResult).reason).toHaveProperty('code');
    }
    figure(
      'store faults: error codes seen',
      failures.map((o) => String(((o as PromiseRejectedResult).reason as { code?: unknown }).code)).join(' '),
    );
    // Plain tools do not need the store and keep working.
    await expect(client.callTool('echo', { value: 'still here' })).resolves.toMatchObject({
      content: [{ text: 'still here' }],
    });
    count('store faults: calls refused while failing', failures.length);

    faults.set('stall');
    const stalled = client.getTask(taskId);
    await expect(client.callTool('echo', { value: 'not blocked' })).resolves.toBeDefined();
    faults.set('ok');
    // The task survived intact: still waiting for the same input, and it completes when answered.
    const task = await stalled;
    expect(task.status).toBe('input_required');
    const keys = Object.keys((task as { inputRequests?: object }).inputRequests ?? {});
    await client.updateTask(
      taskId,
      Object.fromEntries(keys.map((k) => [k, { action: 'accept' as const, content: { ok: true } }])),
    );
    await vi.waitFor(async () => expect(await client.getTask(taskId)).toMatchObject({ status: 'completed' }));
    figure('store faults: calls failed or stalled by injection', faults.injected);
  });
});

/** Starts the sample tool server over HTTP and resolves with its URL once it is listening. */
async function startToolServer(): Promise<{ child: ChildProcess; url: URL; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [TOOL_SERVER_MAIN, '--transport', 'http', '--log-level', 'warn'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  cleanup.push(() => child.kill('SIGKILL'));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match?.[1] !== undefined) resolve(new URL(match[1]));
    });
    child.once('exit', () => reject(new Error(`tool server exited early: ${stderr}`)));
  });
  return { child, url, exited };
}

describe('SIGTERM under load', () => {
  it('stops accepting, drains within the grace period and leaves every call explained', async () => {
    const { child, url, exited } = await startToolServer();
    const clients = Array.from(
      { length: 4 },
      () =>
        new McpClient({
          transport: new HttpClientTransport({ url }),
          clientInfo: { name: 'sigterm', version: '0' },
          tasks: { minIntervalMs: 1, defaultIntervalMs: 20 },
        }),
    );
    cleanup.push(() => Promise.all(clients.map((c) => c.close())));
    // Load: long tasks being driven, and a stream of plain calls.
    const calls: Promise<unknown>[] = [];
    for (const client of clients) {
      calls.push(client.callTool('slow_compute', { seconds: 30 }));
      for (let i = 0; i < 10; i++) calls.push(client.callTool('greet', { name: `n${i}` }));
    }
    // Handlers attach now: calls that end with a transport error while the server drains are
    // settled outcomes, not unhandled rejections.
    const settled = Promise.allSettled(calls);
    await vi.waitFor(async () => {
      const started = await clients[0]?.startTool('slow_compute', { seconds: 30 });
      expect(started?.kind).toBe('task');
    });
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    const code = await exited;
    const drainedMs = Date.now() - signalledAt;
    expect(code).toBe(0);
    // The sample server's grace period is 10 s; it must finish well within it.
    expect(drainedMs).toBeLessThan(10_000);
    // Every call settled: answered, or failed with a transport error (never left hanging).
    const outcomes = await settled;
    const answered = outcomes.filter((o) => o.status === 'fulfilled').length;
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(TransportError);
    }
    // Nothing accepts new work any more.
    await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
    figure('sigterm: calls in flight at the signal', calls.length);
    figure('sigterm: answered / ended with a transport error', `${answered} / ${calls.length - answered}`);
    figure('sigterm: drained in (ms)', drainedMs);
  });
});
