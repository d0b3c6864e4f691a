import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { McpClient } from '@mcp-tasks/client';
import { HttpClientTransport, nodeHttpFetch } from '@mcp-tasks/transport-http';
import { startServer } from '../lib/child.js';
import { percentile, summarize } from '../lib/stats.js';

const now = () => performance.timeOrigin + performance.now();

/**
 * Tasks in flight at once, and how long each sleeps on the server (ms, uniform in [min, 2 × min)). 1,000 tasks of
 * 4–8 s are ~170 completions (and as many new tasks) per second: what a 2-core machine shared with other work
 * carries without the client or server saturating, which would measure CPU starvation instead of the stream.
 */
const IN_FLIGHT = Number(process.env.BENCH_LATENCY_IN_FLIGHT ?? 1000);
const SLEEP_MIN_MS = Number(process.env.BENCH_LATENCY_SLEEP_MS ?? 4000);
/** `--quick` proves the harness: 200 tasks in flight sleeping 1–2 s. */
const QUICK = { inFlight: 200, sleepMinMs: 1000 };

/**
 * Calls `sleep` for `ms` through `client` and resolves with the delay (ms) from the task's completion on the server
 * (stamped by the tool) to the moment the client runtime observed it (its `completed` state, or the result).
 */
export async function observedSleep(client, ms) {
  let observedAt;
  const result = await client.callTool(
    'sleep',
    { ms },
    {
      onStatus: (task) => {
        if (task.status === 'completed') observedAt ??= now();
      },
    },
  );
  observedAt ??= now();
  const completedAt = result.structuredContent?.completedAt;
  if (typeof completedAt !== 'number') throw new Error(`sleep answered ${JSON.stringify(result)}`);
  return observedAt - completedAt;
}

/**
 * `inFlight` workers, each calling `sleep` `1 + perWorker` times in a row through one client, so `inFlight` tasks
 * are in flight at once: all started together, then each replaced as it ends. The first round (the ramp, every
 * task starting at once) is not measured; resolves with the observation delay of each later task.
 */
async function observeInFlight(client, { inFlight, perWorker, sleepMinMs }) {
  const delays = [];
  const worker = async () => {
    for (let i = 0; i <= perWorker; i++) {
      const delay = await observedSleep(client, sleepMinMs + Math.floor(Math.random() * sleepMinMs));
      if (i > 0) delays.push(delay);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return delays;
}

const cpuMicros = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

/**
 * Completion → observation with 1,000 tasks in flight on one client, all observed through the client's shared
 * listen streams (the server's pollIntervalMs is 1 s, so a completion seen by polling would show). Reports p99
 * (p50 in the note), the server's and the client's CPU per task, the listen streams the server had open at each
 * completion, and the load average before and after. `overNode`: the client's transport runs on nodeHttpFetch (the
 * client setup the transport's README recommends on Node, and what the goal is read on) instead of the global fetch.
 */
export async function latencyInFlightRow(ctx, { overNode }) {
  const load = ctx.quick
    ? { ...QUICK, perWorker: 1 }
    : { inFlight: IN_FLIGHT, sleepMinMs: SLEEP_MIN_MS, perWorker: Number(process.env.BENCH_LATENCY_PER_WORKER ?? 2) };
  const reps = ctx.quick ? 1 : Math.min(ctx.reps, 3);
  const server = await startServer('oursHttp', {
    env: { BENCH_POLL_MS: '1000', BENCH_TIMING: '1' },
    execArgv: ctx.oursExecArgv,
  });
  const fetch = overNode ? nodeHttpFetch() : undefined;
  const client = new McpClient({
    transport: new HttpClientTransport({ url: server.info.url, fetch }),
    clientInfo: { name: 'mcp-tasks-bench', version: '0.0.0' },
    tasks: { listen: true },
  });
  try {
    await observeInFlight(client, { inFlight: 50, perWorker: 1, sleepMinMs: 100 }); // warm-up
    const warm = await server.stats();
    const loadBefore = os.loadavg()[0];
    const p99s = [];
    const p50s = [];
    const serverCpu = [];
    const clientCpu = [];
    // The client's event-loop delay: a completion arriving while the loop is blocked (a GC pause, a burst of
    // states to parse) waits for it, so its tail is the floor of the observation's.
    const loopDelay = monitorEventLoopDelay({ resolution: 1 });
    loopDelay.enable();
    for (let rep = 0; rep < reps; rep++) {
      const serverBefore = (await server.stats()).cpuMicros;
      const clientBefore = cpuMicros();
      const delays = await observeInFlight(client, load);
      // Per task started, the ramp included.
      const started = load.inFlight * (load.perWorker + 1);
      serverCpu.push(((await server.stats()).cpuMicros - serverBefore) / started);
      clientCpu.push((cpuMicros() - clientBefore) / started);
      p99s.push(percentile(delays, 99));
      p50s.push(percentile(delays, 50));
    }
    loopDelay.disable();
    const loadAfter = os.loadavg()[0];
    const stats = (await server.stats()).latency ?? {};
    const listens = (stats.listen?.count ?? 0) - (warm.latency?.listen?.count ?? 0);
    const open = stats.openListenStreams;
    const perTask = (method) =>
      (((stats[method]?.count ?? 0) - (warm.latency?.[method]?.count ?? 0)) / (started * reps)).toFixed(2);
    const served = stats.notify;
    const tasks = load.inFlight * load.perWorker;
    const started = load.inFlight * (load.perWorker + 1);
    return {
      case: 'latency',
      title: 'completion → observation (HTTP)',
      variant: `listen, ${load.inFlight} tasks in flight (one client${overNode ? ', nodeHttpFetch' : ', global fetch'}), p99 ms`,
      format: 'ms',
      ours: summarize(p99s),
      cpuPerOp: { ours: summarize(serverCpu) },
      ...(overNode ? { goal: { on: 'ours', max: 5, text: 'p99 < 5 ms' } } : {}),
      note:
        `p50 ${summarize(p50s).median.toFixed(2)} ms; ${tasks} tasks × ${reps} after a ramp of ${load.inFlight}, ` +
        `each sleeping ${load.sleepMinMs}–${2 * load.sleepMinMs} ms; CPU µs per task: server ` +
        `${summarize(serverCpu).median.toFixed(0)}, client ${summarize(clientCpu).median.toFixed(0)}; ` +
        `${listens} listen requests for ${started * reps} tasks, task states sent on them per task ` +
        `${perTask('listenEvent')}, streams open at a completion: ` +
        `p50 ${open?.p50 ?? 'n/a'}, max ${open?.max ?? 'n/a'}; per task: tools/call ${perTask('tools/call')}, ` +
        `tasks/get ${perTask('tasks/get')}, TCP connections opened ${perTask('connection')}` +
        (served === undefined ? '' : `; server's share p50 ${served.p50.toFixed(2)}, p99 ${served.p99.toFixed(2)} ms`) +
        `; client event-loop delay p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)}, max ` +
        `${(loopDelay.max / 1e6).toFixed(0)} ms (ramp included)` +
        `; load ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`,
    };
  } finally {
    await client.close();
    fetch?.close();
    await server.stop();
  }
}
