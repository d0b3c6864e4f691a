import { startServer } from '../lib/child.js';
import { postJson } from '../lib/httpLoad.js';
import { countInstructions } from '../lib/instructionCount.js';
import { greetCall, httpHeaders, tasksGet } from '../lib/messages.js';
import { legacyGreetCall, legacyHeaders } from '../lib/sessions.js';
import { summarize } from '../lib/stats.js';

const stateless = (message) => async () => ({ message, headers: httpHeaders(message) });
const tasksGetRequest = async (info) => stateless(tasksGet(info.taskId))();
const greetRequest = stateless(greetCall());
const legacyGreetRequest = async () => ({ message: legacyGreetCall(), headers: legacyHeaders() });

/** A `tasks/get` pair counts this many requests after this many; the SDKs' greet, 5 to 30 times costlier, fewer. */
const TASKS_GET = { warmup: 10_000, requests: 3_000 };
const GREET = { warmup: 1_000, requests: 300 };

/**
 * Each HTTP server next to its baseline, as `pnpm bench` pairs them. An echo baseline (`echo: true`) answers the
 * exact result ours gives, so both write a body of the same size. `goal`: the `tasks/get` goals against an echo
 * are decided here, on the count, which one run settles (by CPU the node:http one read 0.84×, 0.79× and 0.94× in
 * three runs of the same code); the greet goals stay by CPU, since the SDKs' garbage collection runs on helper
 * threads this count omits.
 */
export const INSTRUCTION_PAIRS = [
  {
    what: 'HTTP tasks/get, node:http',
    ours: 'oursHttp',
    baseline: 'rawHttpEcho',
    echo: true,
    request: tasksGetRequest,
    counts: TASKS_GET,
    goal: { min: 0.8 },
  },
  {
    what: 'HTTP tasks/get, fetch core on @hono/node-server',
    ours: 'oursFetch',
    baseline: 'fetchEcho',
    echo: true,
    request: tasksGetRequest,
    counts: TASKS_GET,
    goal: { min: 0.8 },
  },
  { what: 'tools/call greet vs SDK v2', ours: 'oursHttp', baseline: 'sdkGreet', request: greetRequest, counts: GREET },
  {
    what: 'tools/call greet vs SDK v1 (stateless)',
    ours: 'oursHttp',
    baseline: 'sdkV1Greet',
    baselineEnv: { BENCH_SDK_MODE: 'stateless' },
    baselineRequest: legacyGreetRequest,
    request: greetRequest,
    counts: GREET,
  },
];

/** The result our server gives to `request`, so an echo answers a body of the same size (as `pnpm bench` does). */
async function echoResultOf(name, request) {
  const server = await startServer(name);
  try {
    const { message, headers } = await request(server.info);
    return JSON.stringify((await postJson(server.info.url, message, headers)).result);
  } finally {
    await server.stop();
  }
}

/** Counts one pair (see {@link countInstructions}); `counts` overrides the pair's own request counts. */
export async function countPair(pair, counts = pair.counts) {
  const env = pair.echo ? { BENCH_ECHO_RESULT: await echoResultOf(pair.ours, pair.request) } : {};
  const ours = await countInstructions(pair.ours, { ...counts, request: pair.request });
  const baseline = await countInstructions(pair.baseline, {
    ...counts,
    env: { ...env, ...pair.baselineEnv },
    request: pair.baselineRequest ?? pair.request,
  });
  return { ours, baseline };
}

/**
 * Instructions per HTTP request of each server's main thread under callgrind, next to its baseline: a measure of
 * work that the machine's load does not move. The ratio is baseline / ours (how many times fewer instructions ours
 * ran). Not in `--quick`: `test/instructions.test.js` proves the harness in `check`, and starting eight servers
 * under valgrind would double the quick run.
 */
export async function instructionsCase(ctx) {
  if (ctx.quick) return [];
  const rows = [];
  for (const pair of INSTRUCTION_PAIRS) {
    const { ours, baseline } = await countPair(pair);
    rows.push({
      case: 'instructions',
      title: 'instructions per HTTP request, main thread (callgrind)',
      variant: pair.what,
      format: 'count',
      ours: summarize([Math.round(ours)]),
      baseline: summarize([Math.round(baseline)]),
      ratio: summarize([baseline / ours]),
      goal: pair.goal,
      note: `ratio: baseline / ours; ${pair.counts.requests} requests counted after ${pair.counts.warmup}, one connection`,
    });
    ctx.progress(rows.at(-1));
  }
  return rows;
}
