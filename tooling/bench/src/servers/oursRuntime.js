// Our server runtime as every "ours" benchmark server composes it: one McpServer with the tools the cases call.
import { McpServer } from '@mcp-tasks/server';
import { z } from 'zod';
import { taskCall } from '../lib/messages.js';

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * Builds the runtime: `greet` (synchronous), `hold` (a task that stays `working` until cancelled) and `sleep`
 * (a task that completes after `ms`). `pollIntervalMs` comes from BENCH_POLL_MS (default 1000). `options` are
 * added to the `McpServer` options (tooling/perf-guard passes its deterministic `taskStore`).
 */
export function createRuntime(options = {}) {
  const server = new McpServer({
    serverInfo: { name: 'mcp-tasks-bench', version: '0.0.0' },
    // The scale case runs 10,000 tasks beside the `hold` task every server starts with: the default per-principal
    // limit (10,000 live tasks) would refuse the last one once the client creates them faster than they finish.
    tasks: { pollIntervalMs: Number(process.env.BENCH_POLL_MS ?? 1000), maxTasksPerPrincipal: 20_000 },
    ...options,
  });
  server.tool({
    name: 'greet',
    description: 'Says hello',
    inputSchema: z.object({ name: z.string() }),
    handler: ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
  });
  server.tool({
    name: 'hold',
    description: 'A task that stays working until cancelled',
    taskSupport: 'required',
    handler: (_args, ctx) =>
      new Promise((resolve) => {
        ctx.signal.addEventListener('abort', () => resolve({ content: [{ type: 'text', text: 'cancelled' }] }));
      }),
  });
  server.tool({
    name: 'sleep',
    description: 'A task that completes after ms milliseconds; reports when (epoch ms, sub-ms precision)',
    taskSupport: 'required',
    inputSchema: z.object({ ms: z.number().int().min(0) }),
    handler: async ({ ms }, ctx) => {
      await sleep(ms, ctx.signal);
      // performance.timeOrigin + now() is comparable across processes on one machine (completion-to-observation).
      const completedAt = performance.timeOrigin + performance.now();
      return { content: [{ type: 'text', text: `slept ${ms} ms` }], structuredContent: { completedAt } };
    },
  });
  return server;
}

/** Creates a `hold` task straight through `handle` (no transport) and returns its id. */
export async function createWorkingTask(server) {
  const context = { notify() {}, signal: new AbortController().signal };
  const response = await server.handle(taskCall('hold'), context);
  const taskId = response?.result?.task?.taskId ?? response?.result?.taskId;
  if (typeof taskId !== 'string') throw new Error(`hold did not create a task: ${JSON.stringify(response)}`);
  return taskId;
}
