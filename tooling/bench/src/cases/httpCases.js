import { startServer } from '../lib/child.js';
import { httpLoad, postJson } from '../lib/httpLoad.js';
import { greetCall, httpHeaders, tasksGet } from '../lib/messages.js';
import { pairedRuns } from '../lib/pairedRuns.js';
import { legacyGreetCall, legacyHeaders, openLegacySession } from '../lib/sessions.js';

/** A 2026-07-28 request with its routing headers, the same for every connection. */
const stateless = (message) => async () => ({ message, headers: httpHeaders(message) });

/**
 * One HTTP comparison. Each side names its server (`servers/<name>.js`) and how to build its request (`request`,
 * given the server's ready info; it may open a session first). Our server starts first: the echo baselines answer
 * with the exact result ours gives (`echoReply: true`) to the same request. A side naming the same server as ours (no echo) is served
 * by the same process. Both answers are checked, then each connection count is measured side by side.
 */
async function httpPair(ctx, spec) {
  const ours = await startServer(spec.ours.server, { execArgv: ctx.oursExecArgv });
  let baseline;
  try {
    const oursRequest = await spec.ours.request(ours.info);
    const reply = await postJson(ours.info.url, oursRequest.message, oursRequest.headers);
    spec.check(reply);
    const { server: name, env, echoReply } = spec.baseline;
    baseline =
      name === spec.ours.server && !echoReply
        ? ours
        : await startServer(name, {
            env: { ...env, ...(echoReply && { BENCH_ECHO_RESULT: JSON.stringify(reply.result) }) },
          });
    // Without a request of its own, the baseline gets exactly ours.
    const baselineRequest = spec.baseline.request ? await spec.baseline.request(baseline.info) : oursRequest;
    const baselineReply = await postJson(baseline.info.url, baselineRequest.message, baselineRequest.headers);
    (spec.baselineCheck ?? spec.check)(baselineReply);
    const sizes = { ours: JSON.stringify(reply).length, baseline: JSON.stringify(baselineReply).length };
    const sides = { ours: { server: ours, ...oursRequest }, baseline: { server: baseline, ...baselineRequest } };
    const rows = [];
    for (const connections of spec.connections) {
      const load = (side, seconds) => {
        const { server, message, headers } = sides[side];
        return httpLoad({ url: server.info.url, message, headers, connections, seconds });
      };
      const result = await pairedRuns({
        reps: ctx.reps,
        warmUp: async (side) => (await load(side, ctx.warmSeconds)).rps,
        maxWarmUps: ctx.maxWarmUps,
        measure: async (side) => {
          const server = sides[side].server;
          const before = await server.stats();
          const run = await load(side, ctx.seconds);
          const after = await server.stats();
          return { rate: run.rps, cpuPerOp: (after.cpuMicros - before.cpuMicros) / run.total, p99: run.p99 };
        },
      });
      rows.push({
        case: spec.id,
        title: spec.title,
        variant: `${connections} conn`,
        unit: 'req/s',
        oursLabel: spec.ours.label,
        baselineLabel: spec.baseline.label,
        ...result,
        goal: spec.goal,
        responseBytes: sizes,
        note: spec.note,
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

const oursTasksGet = (server, label) => ({
  server,
  label,
  request: async (info) => stateless(tasksGet(info.taskId))(),
});

/**
 * Why the `tasks/get` rows against an echo carry no goal of their own: three full runs of the same code read
 * 0.84×, 0.79× and 0.94× by CPU at 10 connections, on either side of the 0.8× line, so CPU could not decide it.
 * Both servers run on their main thread alone here (cores 0.99–1.00 each), so its instruction count
 * (`instructionsCase.js`), which does not move from run to run, is the whole of the work: the goals are there.
 */
const BY_INSTRUCTIONS = 'goal decided on instructions per request (the callgrind rows)';

/** HTTP tasks/get on a working task: ours on node:http vs a raw node:http JSON echo. */
export function httpTasksGet(ctx) {
  return httpPair(ctx, {
    id: 'http-tasks-get',
    title: 'HTTP tasks/get (working task)',
    ours: oursTasksGet('oursHttp', 'createHttpHandler on node:http'),
    baseline: { server: 'rawHttpEcho', label: 'raw node:http JSON echo', echoReply: true },
    check: expectWorkingTask,
    connections: ctx.quick ? [10] : [1, 10, 100],
    note: BY_INSTRUCTIONS,
  });
}

/**
 * HTTP tasks/get through the fetch-API core (createFetchHandler on Node via @hono/node-server): vs the raw node:http
 * echo, and vs a fetch echo on the same adapter (the goal: what the core adds over the adapter's own cost).
 */
export async function fetchTasksGet(ctx) {
  const common = {
    id: 'fetch-tasks-get',
    title: 'HTTP tasks/get, fetch-API core on Node',
    ours: oursTasksGet('oursFetch', 'createFetchHandler via @hono/node-server'),
    check: expectWorkingTask,
    connections: [10],
  };
  const raw = await httpPair(ctx, {
    ...common,
    baseline: { server: 'rawHttpEcho', label: 'raw node:http JSON echo', echoReply: true },
    note: 'vs raw node:http echo',
  });
  const adapter = await httpPair(ctx, {
    ...common,
    baseline: { server: 'fetchEcho', label: 'fetch echo on @hono/node-server', echoReply: true },
    note: `vs a fetch echo on the same adapter; ${BY_INSTRUCTIONS}`,
  });
  return [...raw, ...adapter];
}

/** The same through express: our handler mounted in express 5 vs a bare express 5 echo. */
export function expressTasksGet(ctx) {
  return httpPair(ctx, {
    id: 'express-tasks-get',
    title: 'HTTP tasks/get via express 5',
    ours: oursTasksGet('oursExpress', 'express.json() + createHttpHandler'),
    baseline: { server: 'expressEcho', label: 'bare express 5 echo', echoReply: true },
    check: expectWorkingTask,
    connections: [10],
    goal: { min: 0.8, by: 'cpu' },
  });
}

const oursGreet = { server: 'oursHttp', label: 'McpServer + createHttpHandler', request: stateless(greetCall()) };

/**
 * Synchronous tools/call greet: our runtime (2026-07-28, stateless) vs the official SDK v2 server (stateless
 * createMcpHandler), and vs the official SDK v1 server (stateless Streamable HTTP, 2025-era requests).
 */
export async function greetCallCase(ctx) {
  const common = { id: 'http-greet', title: 'HTTP tools/call greet (sync)', check: expectGreeting };
  const v2 = await httpPair(ctx, {
    ...common,
    ours: oursGreet,
    baseline: {
      server: 'sdkGreet',
      label: '@modelcontextprotocol/server 2.4.0 (stateless)',
      request: stateless(greetCall()),
    },
    connections: [10],
    goal: { min: 10, by: 'cpu' },
    note: 'vs SDK v2',
  });
  const v1 = await httpPair(ctx, {
    ...common,
    ours: oursGreet,
    baseline: {
      server: 'sdkV1Greet',
      label: '@modelcontextprotocol/sdk 1.32.2 (stateless)',
      env: { BENCH_SDK_MODE: 'stateless' },
      request: async () => ({ message: legacyGreetCall(), headers: legacyHeaders() }),
    },
    connections: [10],
    goal: { min: 10, by: 'cpu' },
    note: 'vs SDK v1',
  });
  return [...v2, ...v1];
}

/** A 2025-era session at the server: `initialize` once, then `tools/call` with its `Mcp-Session-Id`. */
const legacySession = async (info) => ({ message: legacyGreetCall(), headers: await openLegacySession(info.url) });

/**
 * A 2025-era session (initialize once, then tools/call with `Mcp-Session-Id`) on our server: vs our 2026-07-28
 * stateless path in the same process, and vs the official SDK v1 server in session mode.
 */
export async function sessionCallCase(ctx) {
  const common = { id: 'http-session', title: 'HTTP tools/call greet, 2025-era session', check: expectGreeting };
  const ours = { server: 'oursHttp', label: 'McpServer + createHttpHandler, 2025-era session', request: legacySession };
  const eras = await httpPair(ctx, {
    ...common,
    ours,
    baseline: { ...oursGreet, label: 'the same server, 2026-07-28 stateless' },
    connections: [10],
    goal: { min: 0.8, by: 'cpu' },
    note: 'vs our 2026 stateless path',
  });
  const v1 = await httpPair(ctx, {
    ...common,
    ours,
    baseline: {
      server: 'sdkV1Greet',
      label: '@modelcontextprotocol/sdk 1.32.2 (session)',
      env: { BENCH_SDK_MODE: 'session' },
      request: legacySession,
    },
    connections: [10],
    goal: { min: 5, by: 'cpu' },
    note: 'vs SDK v1 sessions',
  });
  return [...eras, ...v1];
}
