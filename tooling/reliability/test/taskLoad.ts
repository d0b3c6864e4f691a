/**
 * Task traffic for the database-restart fault: loops that create short tasks and input tasks, read tasks back and
 * answer input, each request timed and its outcome kept, and every task id whose `CreateTaskResult` arrived
 * recorded. Nothing here waits on a clock: a loop runs its next request as soon as the last one settled.
 */
import type { McpClient } from '@mcp-tasks/client';

/** A request that failed: when it started and settled, and the JSON-RPC error (or whatever else) it got. */
export interface FailedRequest {
  readonly method: string;
  readonly startedAt: number;
  readonly settledAt: number;
  readonly error: unknown;
}

/** What the loops did so far. */
export interface LoadRecord {
  /** Task ids whose creation was acknowledged, with the tool that made them. */
  readonly acknowledged: Map<string, 'slow' | 'confirm'>;
  readonly failed: FailedRequest[];
  /** Requests that settled (answered or failed), and the longest any of them took. */
  settled: number;
  longestMs: number;
}

/** Runs `clients.length` loops until `stop()`; `done` resolves when every loop has finished its last request. */
export function runTaskLoad(clients: readonly McpClient[]): { record: LoadRecord; stop(): void; done: Promise<void> } {
  const record: LoadRecord = { acknowledged: new Map(), failed: [], settled: 0, longestMs: 0 };
  let running = true;
  const timed = async <T>(method: string, request: () => Promise<T>): Promise<T | undefined> => {
    const startedAt = Date.now();
    try {
      return await request();
    } catch (error) {
      record.failed.push({ method, startedAt, settledAt: Date.now(), error });
      return undefined;
    } finally {
      record.settled++;
      record.longestMs = Math.max(record.longestMs, Date.now() - startedAt);
    }
  };
  const ids = () => [...record.acknowledged.keys()];
  const loop = async (client: McpClient, index: number) => {
    for (let round = index; running; round++) {
      const tool = round % 3 === 0 ? 'confirm' : 'slow';
      const started = await timed('tools/call', () => client.startTool(tool, tool === 'slow' ? { ms: 5 } : {}));
      if (started?.kind === 'task') record.acknowledged.set(started.task.taskId, tool);
      const known = ids();
      const picked = known[(round * 7919) % Math.max(1, known.length)];
      if (picked === undefined) continue;
      const task = await timed('tasks/get', () => client.getTask(picked));
      if (task?.status === 'input_required') await timed('tasks/update', () => answerAll(client, task));
    }
  };
  const done = Promise.all(clients.map((client, index) => loop(client, index))).then(() => undefined);
  return {
    record,
    stop: () => {
      running = false;
    },
    done,
  };
}

/** Accepts every outstanding input request of `task` with `{ ok: true }` (the fixture's `confirm`). */
export function answerAll(
  client: McpClient,
  task: { taskId: string; inputRequests?: Readonly<Record<string, unknown>> },
): Promise<void> {
  const keys = Object.keys(task.inputRequests ?? {});
  return client.updateTask(
    task.taskId,
    Object.fromEntries(keys.map((key) => [key, { action: 'accept' as const, content: { ok: true } }])),
  );
}
