/**
 * The soak: mixed traffic over Streamable HTTP, WebSocket and stdio for a bounded time (SOAK_MS): plain calls,
 * tasks that ask for input and are answered with tasks/update, tasks cancelled mid-run, clients driving tasks over
 * listen streams, and clients killed mid-task whose task is then followed to its end by a fresh client. Asserts
 * that every task reaches exactly one terminal state (the expected one, and it never changes), nothing is lost,
 * this process's heap and file descriptors return to their baseline, and plain-call latency stays bounded.
 */
import type { McpClient } from '@mcp-tasks/client';
import type { DetailedTask } from '@mcp-tasks/protocol';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { collect, count, figure, openFds, SOAK_MS, SOAK_P99_BOUND_MS } from './budget.js';
import {
  APP_TOOLS,
  connectClient,
  FIXTURE_TOOLS,
  type ServedFixture,
  serveFixture,
  type ToolNames,
  type TransportKind,
} from './fixtureServer.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const TTL_MS = 3_000;

interface Tracked {
  readonly client: McpClient;
  readonly expected: 'completed' | 'cancelled';
  terminal?: string;
}

const tracked = new Map<string, Tracked>();
const latencies: number[] = [];
const problems: string[] = [];

async function untilTerminal(client: McpClient, taskId: string, stop?: (t: DetailedTask) => boolean) {
  for (;;) {
    const task = await client.getTask(taskId);
    if (TERMINAL.has(task.status) || stop?.(task)) return task;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function startTask(client: McpClient, [name, args]: [string, Record<string, unknown>]): Promise<string> {
  const started = await client.startTool(name, args);
  if (started.kind !== 'task') throw new Error(`${name} answered without a task`);
  return started.task.taskId;
}

function settle(taskId: string, task: DetailedTask): void {
  const entry = tracked.get(taskId);
  if (entry === undefined) return;
  if (entry.terminal !== undefined && entry.terminal !== task.status) {
    problems.push(`${taskId} went ${entry.terminal} then ${task.status}`);
  }
  entry.terminal = task.status;
  if (task.status !== entry.expected) problems.push(`${taskId} ended ${task.status}, expected ${entry.expected}`);
}

/** One worker's loop over its transport until `deadline`. */
async function worker(kind: TransportKind, fixture: ServedFixture, deadline: number, listen: boolean) {
  const tools: ToolNames = kind === 'stdio' ? APP_TOOLS : FIXTURE_TOOLS;
  const client = await connectClient(kind, fixture, { listen });
  try {
    for (let round = 0; Date.now() < deadline; round++) {
      const action = round % 4;
      if (action === 0) {
        const began = performance.now();
        const result = await client.callTool(...tools.plain(`p${round}`));
        latencies.push(performance.now() - began);
        if (JSON.stringify(result).includes(`p${round}`) === false) problems.push(`plain call lost its answer`);
        count(`${kind}: plain calls`);
      } else if (action === 1) {
        const taskId = await startTask(client, tools.ask());
        tracked.set(taskId, { client, expected: 'completed' });
        const waiting = await untilTerminal(client, taskId, (t) => t.status === 'input_required');
        const keys = Object.keys((waiting as { inputRequests?: object }).inputRequests ?? {});
        await client.updateTask(
          taskId,
          Object.fromEntries(keys.map((key) => [key, { action: 'accept' as const, content: { ...tools.answer } }])),
        );
        settle(taskId, await untilTerminal(client, taskId));
        count(`${kind}: tasks answered via tasks/update`);
      } else if (action === 2) {
        const taskId = await startTask(client, tools.slow(60_000));
        tracked.set(taskId, { client, expected: 'cancelled' });
        await client.cancelTask(taskId);
        settle(taskId, await untilTerminal(client, taskId));
        count(`${kind}: tasks cancelled`);
      } else if (kind === 'stdio') {
        // A stdio client that dies takes its server with it: here the task is driven to its end instead.
        await client.callTool(...tools.slow(30));
        count(`${kind}: tasks driven by callTool`);
      } else {
        // A client killed mid-task; a fresh one follows the task to its end.
        const doomed = await connectClient(kind, fixture);
        const taskId = await startTask(doomed, tools.slow(100));
        await doomed.close();
        tracked.set(taskId, { client, expected: 'completed' });
        settle(taskId, await untilTerminal(client, taskId));
        count(`${kind}: tasks resumed after their client was killed`);
      }
    }
    // Exactly one terminal state: read every finished task again, still before it expires.
    for (const [taskId, entry] of tracked) {
      if (entry.client !== client || entry.terminal === undefined) continue;
      const again = await client.getTask(taskId).catch(() => undefined);
      if (again !== undefined && again.status !== entry.terminal) problems.push(`${taskId} changed after ending`);
    }
  } finally {
    await client.close();
  }
}

describe('soak', () => {
  let fixture: ServedFixture | undefined;
  afterAll(() => fixture?.close());

  it(`mixed traffic over http, ws and stdio for ${SOAK_MS / 1000} s loses nothing and returns to baseline`, async () => {
    // One principal drives thousands of tasks here; the per-principal limit has its own tests.
    fixture = await serveFixture({ server: { tasks: { ttlMs: TTL_MS, maxTasksPerPrincipal: 1_000_000 } } });
    collect();
    const heapBefore = process.memoryUsage().heapUsed;
    const fdsBefore = await openFds();
    const deadline = Date.now() + SOAK_MS;
    const kinds: TransportKind[] = ['http', 'ws', 'stdio'];
    await Promise.all(
      kinds.flatMap((kind) => [false, true].map((listen) => worker(kind, fixture as ServedFixture, deadline, listen))),
    );

    expect(problems).toEqual([]);
    const unfinished = [...tracked].filter(([, entry]) => entry.terminal === undefined).map(([id]) => id);
    expect(unfinished).toEqual([]);
    expect(fixture.errors).toEqual([]);

    const sorted = [...latencies].sort((a, b) => a - b);
    const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? 0;
    figure('soak: duration (s)', SOAK_MS / 1000);
    figure('soak: tasks tracked to one terminal state', tracked.size);
    figure('soak: plain calls', latencies.length);
    figure(
      'soak: plain call p50 / p99 (ms)',
      `${(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(1)} / ${p99.toFixed(1)}`,
    );
    expect(latencies.length).toBeGreaterThan(0);
    expect(p99).toBeLessThan(SOAK_P99_BOUND_MS);

    // Back to baseline: sockets and child processes gone, tasks expired (their TTL), garbage collected.
    if (fdsBefore !== undefined) {
      await vi.waitFor(async () => expect(await openFds()).toBeLessThanOrEqual(fdsBefore + 2), { timeout: 15_000 });
      figure('soak: fds before / after', `${fdsBefore} / ${await openFds()}`);
    }
    await vi.waitFor(
      () => {
        collect();
        expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(24 * 1024 * 1024);
      },
      { timeout: TTL_MS * 4, interval: 500 },
    );
    figure('soak: heap growth after (MiB)', ((process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024).toFixed(1));
  });
});
