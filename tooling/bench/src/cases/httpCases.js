import { startServer } from '../lib/child.js';
import { httpLoad, postJson } from '../lib/httpLoad.js';
import { greetCall, httpHeaders, tasksGet } from '../lib/messages.js';
import { pairedRuns } from '../lib/pairedRuns.js';

/**
 * One HTTP comparison: starts our server (learning the exact response it gives, so the echo baseline can answer
 * with one of the same size), checks both answer correctly, then measures each connection count side by side.
 */
async function httpPair(ctx, spec) {
  const ours = await startServer(spec.ours, { execArgv: ctx.oursExecArgv });
  let baseline;
  try {
    const message = spec.message(ours.info);
    const headers = httpHeaders(message);
    const reply = await postJson(ours.info.url, message, headers);
    spec.check(reply);
    baseline = await startServer(spec.baseline, { env: { BENCH_ECHO_RESULT: JSON.stringify(reply.result) } });
    const baselineReply = await postJson(baseline.info.url, message, headers);
    if (spec.baselineCheck) spec.baselineCheck(baselineReply);
    const sizes = { ours: JSON.stringify(reply).length, baseline: JSON.stringify(baselineReply).length };
    const servers = { ours, baseline };
    const rows = [];
    for (const connections of spec.connections) {
      const load = (side, seconds) => httpLoad({ url: servers[side].info.url, message, headers, connections, seconds });
      const result = await pairedRuns({
        reps: ctx.reps,
        warmUp: (side) => load(side, ctx.warmSeconds),
        measure: async (side) => {
          const before = await servers[side].stats();
          const run = await load(side, ctx.seconds);
          const after = await servers[side].stats();
          return { rate: run.rps, cpuPerOp: (after.cpuMicros - before.cpuMicros) / run.total, p99: run.p99 };
        },
      });
      const goal = spec.goalAt === undefined || spec.goalAt === connections ? spec.goal : undefined;
      rows.push({
        case: spec.id,
        title: spec.title,
        variant: `${connections} conn`,
        unit: 'req/s',
        oursLabel: spec.oursLabel,
        baselineLabel: spec.baselineLabel,
        ...result,
        goal,
        responseBytes: sizes,
      });
      ctx.progress(rows.at(-1));
    }
    return rows;
  } finally {
    await Promise.all([ours.stop(), baseline?.stop()]);
  }
}

function expectWorkingTask(reply) {
  if (reply.result?.status !== 'working')
    throw new Error(`tasks/get did not answer a working task: ${JSON.stringify(reply)}`);
}

function expectGreeting(reply) {
  const text = reply.result?.content?.[0]?.text;
  if (text !== 'Hello, bench!') throw new Error(`greet answered ${JSON.stringify(reply)}`);
}

/** HTTP tasks/get on a working task: ours on node:http vs a raw node:http JSON echo. */
export function httpTasksGet(ctx) {
  return httpPair(ctx, {
    id: 'http-tasks-get',
    title: 'HTTP tasks/get (working task)',
    ours: 'oursHttp',
    oursLabel: 'createHttpHandler on node:http',
    baseline: 'rawHttpEcho',
    baselineLabel: 'raw node:http JSON echo',
    message: (info) => tasksGet(info.taskId),
    check: expectWorkingTask,
    connections: ctx.quick ? [10] : [1, 10, 100],
    goalAt: 10,
    goal: { min: 0.6 },
  });
}

/** The same through express: our handler mounted in express 5 vs a bare express 5 echo. */
export function expressTasksGet(ctx) {
  return httpPair(ctx, {
    id: 'express-tasks-get',
    title: 'HTTP tasks/get via express 5',
    ours: 'oursExpress',
    oursLabel: 'express.json() + createHttpHandler',
    baseline: 'expressEcho',
    baselineLabel: 'bare express 5 echo',
    message: (info) => tasksGet(info.taskId),
    check: expectWorkingTask,
    connections: [10],
    goal: { min: 0.8 },
  });
}

/** Synchronous tools/call greet: our runtime vs the official SDK v2 server (stateless). */
export function greetCallCase(ctx) {
  return httpPair(ctx, {
    id: 'http-greet',
    title: 'HTTP tools/call greet (sync)',
    ours: 'oursHttp',
    oursLabel: 'McpServer + createHttpHandler',
    baseline: 'sdkGreet',
    baselineLabel: '@modelcontextprotocol/server 2.4.0 (stateless)',
    message: () => greetCall(),
    check: expectGreeting,
    baselineCheck: expectGreeting,
    connections: [10],
    goal: { min: 3 },
  });
}
