import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { httpLoad, postJson } from '../lib/httpLoad.js';
import { httpHeaders, requestMeta, TASKS_CAPS, tasksGet } from '../lib/messages.js';
import { pairedRuns } from '../lib/pairedRuns.js';

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
  return { url, stop };
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

/**
 * `tasks/get` throughput of one tool-server process against two on the same database (autocannon splits the same
 * connections between them, as a load balancer would). Ratio = two / one; the goal is "not slower".
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
      return runs.reduce((sum, run) => sum + run.rps, 0);
    };
    const sides = { baseline: [servers[0].url], ours: servers.map((server) => server.url) };
    const result = await pairedRuns({
      reps: ctx.reps,
      warmUp: (side) => load(sides[side], ctx.warmSeconds),
      measure: async (side) => ({ rate: await load(sides[side], ctx.seconds) }),
    });
    const row = {
      case: 'postgres',
      title: `tasks/get over HTTP on PostgreSQL, ${connections} connections`,
      variant: 'two instances (ours) vs one (baseline)',
      unit: 'req/s',
      oursLabel: 'two instances',
      baselineLabel: 'one instance',
      ...result,
      goal: { min: 1, text: 'two ≥ one' },
    };
    ctx.progress(row);
    return [row];
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}
