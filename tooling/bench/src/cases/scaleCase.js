import http from 'node:http';
import { McpClient } from '@mcp-tasks/client';
import { HttpClientTransport, nodeHttpFetch } from '@mcp-tasks/transport-http';
import { timedTransport } from '../clients/timedTransport.js';
import { startServer } from '../lib/child.js';
import { percentile, summarize } from '../lib/stats.js';

/** Samples the server's RSS and CPU every `ms` until stopped; resolves with the peak RSS. */
function sampleServer(server, ms) {
  let peakRss = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { memory } = await server.stats();
      peakRss = Math.max(peakRss, memory.rss);
      await new Promise((resolve) => setTimeout(resolve, ms));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return peakRss;
  };
}

const one = (value) => summarize([value]);

/**
 * Many concurrent tasks over HTTP, each driven to completion by McpClient honouring the server's pollIntervalMs.
 * All tasks are started at once; each sleeps `taskMs` on the server. Reports completion, server peak RSS, server
 * CPU, and the tasks/get latency as the server served it and as the client runtime saw it.
 */
export async function scaleCase(ctx) {
  const tasks = ctx.quick ? 500 : 10_000;
  const taskMs = ctx.quick ? 1000 : 10_000;
  const pollMs = ctx.quick ? 500 : 5000;
  const server = await startServer('oursHttp', {
    env: { BENCH_POLL_MS: String(pollMs), BENCH_TIMING: '1' },
    execArgv: ['--expose-gc', ...ctx.oursExecArgv],
  });
  // The global fetch (undici) opens one connection per concurrent request with no upper bound (10,000 tasks would
  // mean 10,000 sockets) and costs ~1 ms of client CPU per request, which would make the load generator, not the
  // server, the bottleneck: nodeHttpFetch over an agent of at most 256 sockets.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const fetch = nodeHttpFetch({ httpAgent: agent });
  const transport = timedTransport(new HttpClientTransport({ url: server.info.url, fetch }));
  const client = new McpClient({ transport, clientInfo: { name: 'mcp-tasks-bench', version: '0.0.0' } });
  try {
    const idle = await server.stats({ gc: true });
    const stopSampling = sampleServer(server, 250);
    const started = performance.now();
    const outcomes = await Promise.allSettled(
      Array.from({ length: tasks }, () => client.callTool('sleep', { ms: taskMs })),
    );
    const seconds = (performance.now() - started) / 1000;
    const peakRss = await stopSampling();
    const after = await server.stats();
    const completed = outcomes.filter(
      (outcome) => outcome.status === 'fulfilled' && outcome.value.content?.[0]?.text === `slept ${taskMs} ms`,
    ).length;
    const firstFailure = outcomes.find((outcome) => outcome.status === 'rejected');
    const gets = transport.latencies.get('tasks/get') ?? [];
    const served = after.latency?.['tasks/get'];
    const cpuSeconds = (after.cpuMicros - idle.cpuMicros) / 1e6;
    const base = { case: 'scale', title: `${tasks.toLocaleString('en-US')} concurrent tasks over HTTP` };
    const note = `${taskMs} ms tasks, pollIntervalMs ${pollMs}, ${gets.length.toLocaleString('en-US')} tasks/get in ${seconds.toFixed(1)} s`;
    const rows = [
      {
        ...base,
        variant: 'completed',
        format: 'count',
        ours: one(completed),
        goal: { text: `all ${tasks}`, on: 'ours', min: tasks },
        note: firstFailure ? String(firstFailure.reason) : note,
      },
      {
        ...base,
        variant: 'server peak RSS (MiB)',
        format: 'ms',
        ours: one(peakRss / 2 ** 20),
        note: `idle ${(idle.memory.rss / 2 ** 20).toFixed(0)} MiB`,
      },
      {
        ...base,
        variant: 'tasks/get p99 (ms, server-side)',
        format: 'ms',
        ours: one(served?.p99 ?? Number.NaN),
        note: `arrival → response end; p50 ${served?.p50.toFixed(2)} ms, max ${served?.max.toFixed(0)} ms`,
      },
      {
        ...base,
        variant: 'tasks/get p99 (ms, client-side)',
        format: 'ms',
        ours: one(percentile(gets, 99)),
        note: `includes queueing in the client's 256-socket pool; p50 ${percentile(gets, 50).toFixed(1)} ms`,
      },
      {
        ...base,
        variant: 'server CPU (s, % of one core)',
        format: 'ms',
        ours: one(cpuSeconds),
        note: `${((cpuSeconds / seconds) * 100).toFixed(0)}% of one core over ${seconds.toFixed(1)} s`,
      },
    ];
    for (const row of rows) ctx.progress(row);
    return rows;
  } finally {
    await client.close();
    agent.destroy();
    await server.stop();
  }
}
