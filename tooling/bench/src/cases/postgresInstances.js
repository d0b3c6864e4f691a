import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { httpLoad, postJson } from '../lib/httpLoad.js';
import { httpHeaders, requestMeta, TASKS_CAPS, tasksGet } from '../lib/messages.js';
import { pairedRuns } from '../lib/pairedRuns.js';
import { postmasterPid, processCpuMicros, treeCpuMicros } from '../lib/processCpu.js';

const TOOL_SERVER = fileURLToPath(
  new URL('../../node_modules/@mcp-tasks/app-tool-server/dist/main.js', import.meta.url),
);
const ASKING_CAPS = { ...TASKS_CAPS, elicitation: {} };

/** Starts the sample tool server on `store` as instance `id`; resolves with its endpoint and a stop function. */
async function toolServer(id, store) {
  const args = ['--transport', 'http', '--port', '0', '--tools', 'demo', '--store', store, '--instance-id', id];
  const child = spawn(process.execPath, [TOOL_SERVER, ...args, '--log-level', 'error'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`tool server ${id} exited with ${code}: ${stderr}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  return { url, stop, pid: child.pid };
}

/** Creates a `deploy_service` task at `url` and waits until it idles in `input_required` (no CPU spent). */
async function idleTask(url) {
  const call = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'deploy_service', arguments: { service: 'bench', version: '1' }, _meta: requestMeta(ASKING_CAPS) },
  };
  const created = await postJson(url, call, httpHeaders(call));
  const taskId = created.result?.taskId;
  if (typeof taskId !== 'string') throw new Error(`no task: ${JSON.stringify(created)}`);
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
    const reply = await postJson(url, tasksGet(taskId), httpHeaders(tasksGet(taskId)));
    if (reply.result?.status === 'input_required') return taskId;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`task ${taskId} never asked its question`);
}

/** CPU time (µs) so far of each party: the tool servers of a side, the database, and this process (the load). */
function cpuNow(serverPids, dbPid) {
  const harness = process.cpuUsage();
  return {
    servers: serverPids.reduce((sum, pid) => sum + processCpuMicros(pid), 0),
    db: dbPid === undefined ? Number.NaN : treeCpuMicros(dbPid),
    load: harness.user + harness.system,
  };
}

/** Median of the per-run values of `key`. */
function median(runs, key) {
  const sorted = runs.map((run) => run[key]).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Where the CPU of one side went: µs per request and cores kept busy, per party. */
function cpuNote(runs) {
  const part = (key) =>
    `${median(runs, `${key}PerOp`).toFixed(0)} µs/op, ${median(runs, `${key}Cores`).toFixed(2)} cores`;
  return `servers ${part('servers')}; database ${part('db')}; load generator ${part('load')}`;
}

/**
 * `tasks/get` throughput of one tool-server process against two on the same database (autocannon splits the same
 * connections between them, as a load balancer would). Ratio = two / one. Next to it, per side, the CPU each party
 * spent per request and how many cores it kept busy (tool servers, the database's processes, this process as the
 * load generator): on a machine with few cores that tells which one bounds the figure.
 */
export async function getThroughput(ctx, store) {
  const servers = [await toolServer('a', store), await toolServer('b', store)];
  try {
    const taskId = await idleTask(servers[0].url);
    const message = tasksGet(taskId);
    const headers = httpHeaders(message);
    const connections = 16;
    const load = async (urls, seconds) => {
      const runs = await Promise.all(
        urls.map((url) => httpLoad({ url, message, headers, connections: connections / urls.length, seconds })),
      );
      return { rps: runs.reduce((sum, run) => sum + run.rps, 0), total: runs.reduce((sum, run) => sum + run.total, 0) };
    };
    const sides = { baseline: [servers[0]], ours: servers };
    const dbPid = postmasterPid(new URL(store).port);
    const result = await pairedRuns({
      reps: ctx.reps,
      warmUp: (side) =>
        load(
          sides[side].map((server) => server.url),
          ctx.warmSeconds,
        ),
      measure: async (side) => {
        const pids = sides[side].map((server) => server.pid);
        const before = cpuNow(pids, dbPid);
        const started = performance.now();
        const { rps, total } = await load(
          sides[side].map((server) => server.url),
          ctx.seconds,
        );
        const wallMicros = (performance.now() - started) * 1000;
        const after = cpuNow(pids, dbPid);
        const run = { rate: rps };
        for (const key of ['servers', 'db', 'load']) {
          run[`${key}PerOp`] = (after[key] - before[key]) / total;
          run[`${key}Cores`] = (after[key] - before[key]) / wallMicros;
        }
        return { ...run, cpuPerOp: run.serversPerOp };
      },
    });
    const row = {
      case: 'postgres',
      title: `tasks/get over HTTP on PostgreSQL, ${connections} connections`,
      variant: 'two instances (ours) vs one (baseline)',
      unit: 'req/s',
      oursLabel: 'two instances',
      baselineLabel: 'one instance',
      ...result,
      goal: { min: 1.5 },
      note: `two: ${cpuNote(result.extra.ours)}. One: ${cpuNote(result.extra.baseline)}`,
    };
    ctx.progress(row);
    return [row];
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}
