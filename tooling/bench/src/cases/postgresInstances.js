import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createCpuQuota } from '../lib/cpuQuota.js';
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

/** Each instance's CPU cap in the capped comparison: two of them, the database and the load fit in two cores. */
const CAPPED_CORES = 0.4;

/**
 * Measures one instance (baseline) against two (ours) on `servers`, side by side: per run the rate and, per party,
 * the CPU per request and the cores kept busy.
 */
function twoAgainstOne(ctx, { servers, message, headers, connections, dbPid }) {
  const load = async (urls, seconds) => {
    const runs = await Promise.all(
      urls.map((url) => httpLoad({ url, message, headers, connections: connections / urls.length, seconds })),
    );
    return { rps: runs.reduce((sum, run) => sum + run.rps, 0), total: runs.reduce((sum, run) => sum + run.total, 0) };
  };
  const urls = { baseline: [servers[0].url], ours: servers.map((server) => server.url) };
  const pids = { baseline: [servers[0].pid], ours: servers.map((server) => server.pid) };
  return pairedRuns({
    reps: ctx.reps,
    warmUp: async (side) => (await load(urls[side], ctx.warmSeconds)).rps,
    maxWarmUps: ctx.maxWarmUps,
    measure: async (side) => {
      const before = cpuNow(pids[side], dbPid);
      const started = performance.now();
      const { rps, total } = await load(urls[side], ctx.seconds);
      const wallMicros = (performance.now() - started) * 1000;
      const after = cpuNow(pids[side], dbPid);
      const run = { rate: rps };
      for (const key of ['servers', 'db', 'load']) {
        run[`${key}PerOp`] = (after[key] - before[key]) / total;
        run[`${key}Cores`] = (after[key] - before[key]) / wallMicros;
      }
      return { ...run, cpuPerOp: run.serversPerOp };
    },
  });
}

/**
 * Puts each server into its cgroup (`quotas[i]`, from {@link createCpuQuota}) and runs `measure`. `{ unavailable }`
 * with the reason when the machine cannot cap CPU; the caller removes the groups once the servers have stopped.
 */
async function withCappedInstances(servers, quotas, measure) {
  const unavailable = quotas.find((quota) => quota.unavailable !== undefined);
  if (unavailable !== undefined) return { unavailable: unavailable.unavailable };
  try {
    for (const [i, server] of servers.entries()) quotas[i].cap.add(server.pid);
  } catch (error) {
    return { unavailable: `cannot move a server into its cgroup (${error.code ?? error.message})` };
  }
  return { result: await measure() };
}

/**
 * `tasks/get` throughput of one tool-server process against two on the same database (autocannon splits the same
 * connections between them, as a load balancer would). Ratio = two / one. Next to it, per side, the CPU each party
 * spent per request and how many cores it kept busy (tool servers, the database's processes, this process as the
 * load generator): on a machine with few cores that tells which one bounds the figure.
 *
 * Measured twice. First as the processes come: on a machine with few cores one instance already keeps a core busy,
 * so the second instance mostly competes with the database and the load generator for the rest. Then with each
 * instance capped at {@link CAPPED_CORES} cores (a cgroup CPU quota, as a container limit would): two instances, the
 * database and the load then fit in two cores, so the ratio shows whether a second instance adds throughput when
 * neither the database nor the machine is the bottleneck, the goal's condition. The goal is judged on the capped
 * row; where the machine cannot cap CPU (no writable cgroup), on the uncapped one, and the note says why.
 */
export async function getThroughput(ctx, store) {
  const servers = [await toolServer('a', store), await toolServer('b', store)];
  const quotas = servers.map((_, i) => createCpuQuota(`instance-${i}`, CAPPED_CORES));
  try {
    const taskId = await idleTask(servers[0].url);
    const message = tasksGet(taskId);
    const setup = {
      servers,
      message,
      headers: httpHeaders(message),
      connections: 16,
      dbPid: postmasterPid(new URL(store).port),
    };
    const title = `tasks/get over HTTP on PostgreSQL, ${setup.connections} connections`;
    const common = {
      case: 'postgres',
      title,
      unit: 'req/s',
      oursLabel: 'two instances',
      baselineLabel: 'one instance',
    };
    const note = (result) => `two: ${cpuNote(result.extra.ours)}. One: ${cpuNote(result.extra.baseline)}`;

    const uncapped = await twoAgainstOne(ctx, setup);
    const capped = await withCappedInstances(servers, quotas, () => twoAgainstOne(ctx, setup));
    const rows = [
      {
        ...common,
        variant: 'two instances (ours) vs one (baseline), uncapped',
        ...uncapped,
        ...(capped.unavailable !== undefined && { goal: { min: 1.5 } }),
        note:
          capped.unavailable === undefined
            ? `${note(uncapped)}. The machine's cores bound this row; the capped row is the goal's test`
            : `${note(uncapped)}. No capped row: ${capped.unavailable}`,
      },
    ];
    if (capped.result !== undefined) {
      rows.push({
        ...common,
        variant: `two instances vs one, each capped at ${CAPPED_CORES} cores`,
        ...capped.result,
        goal: { min: 1.5 },
        note: `cgroup CPU quota per instance. ${note(capped.result)}`,
      });
    }
    for (const row of rows) ctx.progress(row);
    return rows;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    for (const quota of quotas) quota.cap?.remove();
  }
}
