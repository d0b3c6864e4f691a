// pnpm bench:instructions [--requests=N] [--warmup=N]
// Instructions per HTTP request on the server's main thread, counted by callgrind, for each HTTP server next to its
// baseline: a cost figure that does not move with the machine's load, unlike the ratios of `pnpm bench`.
import { parseArgs } from 'node:util';
import { startServer } from './lib/child.js';
import { postJson } from './lib/httpLoad.js';
import { countInstructions } from './lib/instructionCount.js';
import { httpHeaders, tasksGet } from './lib/messages.js';
import { loadAverage, machine } from './lib/report.js';

/** Each of our HTTP fronts and the baseline it is compared with (the same pairs as `pnpm bench`). */
const PAIRS = [
  { ours: 'oursHttp', baseline: 'rawHttpEcho', what: 'HTTP tasks/get, node:http' },
  { ours: 'oursFetch', baseline: 'fetchEcho', what: 'HTTP tasks/get, fetch core on @hono/node-server' },
];

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '3000' },
    warmup: { type: 'string', default: '10000' },
  },
});
const requests = Number(values.requests);
const warmup = Number(values.warmup);

/** The result our server gives, so the baseline answers a body of the same size (as `pnpm bench` does). */
async function echoResultOf(name) {
  const server = await startServer(name);
  try {
    const message = tasksGet(server.info.taskId);
    return JSON.stringify((await postJson(server.info.url, message, httpHeaders(message))).result);
  } finally {
    await server.stop();
  }
}

const started = Date.now();
const loadBefore = loadAverage();
const rows = [];
for (const pair of PAIRS) {
  const echo = { BENCH_ECHO_RESULT: await echoResultOf(pair.ours) };
  const ours = await countInstructions(pair.ours, { warmup, requests });
  const baseline = await countInstructions(pair.baseline, { env: echo, warmup, requests });
  process.stderr.write(`  ${pair.what}: ${Math.round(ours)} vs ${Math.round(baseline)}\n`);
  rows.push([
    pair.what,
    Math.round(ours).toLocaleString('en-US'),
    `${Math.round(baseline).toLocaleString('en-US')} (${pair.baseline})`,
    `${(ours / baseline).toFixed(3)}×`,
  ]);
}
const { cpu, cores, node } = machine();
console.log(
  [
    '| path | ours, instructions per request | baseline | ours / baseline |',
    '| --- | --- | --- | --- |',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
    '',
    `${cpu}, ${cores} cores, Node ${node}; load ${loadBefore.join(' ')} → ${loadAverage().join(' ')}; ` +
      `${Math.round((Date.now() - started) / 1000)} s; ${requests} requests counted after ${warmup}, one connection, ` +
      "the server's main thread (callgrind)",
  ].join('\n'),
);
