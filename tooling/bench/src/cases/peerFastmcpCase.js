import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDatabase, postgresForTests } from '@mcp-tasks/postgres-harness';
import { httpHeaders, taskCall, tasksGet } from '../lib/messages.js';
import { summarize } from '../lib/stats.js';

const TOOL_SERVER = fileURLToPath(
  new URL('../../node_modules/@mcp-tasks/app-tool-server/dist/main.js', import.meta.url),
);
const FIXTURE = fileURLToPath(new URL('../../../peers/python/fastmcp_fixture.py', import.meta.url));
const CACHE = process.env.MCP_TASKS_PEERS_CACHE ?? join(homedir(), '.cache/mcp-tasks-peers');
const CONCURRENCY = 8;

/** The fastmcp-tasks venv and redis-server that `pnpm interop:peers` installed, or why there are none. */
function installedPeer() {
  const venv = existsSync(CACHE) ? readdirSync(CACHE).find((d) => d.startsWith('fastmcp-tasks-')) : undefined;
  if (!venv || !existsSync(join(CACHE, venv, '.installed')))
    return { reason: `fastmcp-tasks is not installed in ${CACHE} (run pnpm interop:peers)` };
  const redis = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p));
  if (!redis) return { reason: 'redis-server is not installed (apt-get install redis-server)' };
  return { python: join(CACHE, venv, 'bin/python'), redis };
}

function freePort() {
  return new Promise((resolvePort) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** Starts a process in its own group; `ready` is a pattern its output must show (or an URL that must answer). */
async function start(command, args, { env, ready }) {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  };
  for (const deadline = Date.now() + 60_000; ; await new Promise((r) => setTimeout(r, 100))) {
    if (child.exitCode !== null) throw new Error(`${command} exited: ${output.slice(-500)}`);
    if (Date.now() > deadline) throw new Error(`${command} not ready: ${output.slice(-500)}`);
    if (typeof ready !== 'string' && ready.test(output)) return { stop, match: ready.exec(output) };
    if (
      typeof ready === 'string' &&
      (await fetch(ready, { signal: AbortSignal.timeout(500) }).then(
        () => true,
        () => false,
      ))
    )
      return { stop };
  }
}

/** One POST; the answer may be JSON or one SSE event (fastmcp answers a POST as a stream). */
async function post(url, message) {
  const response = await fetch(url, { method: 'POST', headers: httpHeaders(message), body: JSON.stringify(message) });
  const text = await response.text();
  const json = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .find((l) => l.startsWith('data: '))
        ?.slice(6);
  return JSON.parse(json ?? 'null');
}

/** Closed loop of CONCURRENCY callers for `seconds`: create a task, poll it to completed; counts and poll times. */
async function completeTasks(url, seconds) {
  const pollMs = [];
  let completed = 0;
  const end = Date.now() + seconds * 1000;
  const caller = async () => {
    while (Date.now() < end) {
      const created = await post(url, taskCall('slow_compute', { seconds: 0 }));
      const taskId = created?.result?.taskId;
      if (typeof taskId !== 'string') throw new Error(`no task: ${JSON.stringify(created)}`);
      for (;;) {
        const t0 = performance.now();
        const got = await post(url, tasksGet(taskId));
        pollMs.push(performance.now() - t0);
        if (got?.result?.status === 'completed') break;
        if (got?.result?.status !== 'working') throw new Error(`task ${taskId}: ${JSON.stringify(got)}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      completed += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, caller));
  const medianPoll = summarize(pollMs).median;
  return { perSecond: completed / ((performance.now() - started) / 1000), pollMs: medianPoll };
}

async function measure(ctx, url) {
  await completeTasks(url, ctx.warmSeconds);
  const runs = [];
  for (let i = 0; i < ctx.reps; i += 1) runs.push(await completeTasks(url, ctx.seconds));
  return { rate: summarize(runs.map((r) => r.perSecond)), poll: summarize(runs.map((r) => r.pollMs)) };
}

async function oursOnPostgres(ctx) {
  const postgres = await postgresForTests();
  try {
    const store = await freshDatabase(postgres.url, 'bench_peer');
    const args = [
      '--transport',
      'http',
      '--port',
      '0',
      '--tools',
      'conformance',
      '--store',
      store,
      '--log-level',
      'info',
    ];
    const server = await start(process.execPath, [TOOL_SERVER, ...args], { ready: /listening on (http:\/\/\S+\/mcp)/ });
    try {
      return await measure(ctx, server.match[1]);
    } finally {
      server.stop();
    }
  } finally {
    await postgres.stop();
  }
}

async function fastmcpOnRedis(ctx, peer) {
  const [redisPort, httpPort] = [await freePort(), await freePort()];
  const redis = await start(
    peer.redis,
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      ready: /Ready to accept connections/,
    },
  );
  const env = { FASTMCP_DOCKET_URL: `redis://127.0.0.1:${redisPort}/0`, PYTHONWARNINGS: 'ignore' };
  const stops = [redis.stop];
  try {
    const url = `http://127.0.0.1:${httpPort}/mcp`;
    stops.push(
      (
        await start(peer.python, [FIXTURE, '--transport', 'http', '--port', String(httpPort), '--stateless'], {
          env,
          ready: url,
        })
      ).stop,
    );
    const worker = spawn(peer.python, ['-m', 'fastmcp_tasks.worker_cli', 'worker', FIXTURE], {
      env: { ...process.env, ...env },
      stdio: 'ignore',
      detached: true,
    });
    stops.push(() => {
      try {
        process.kill(-worker.pid, 'SIGKILL');
      } catch {}
    });
    return await measure(ctx, url);
  } finally {
    for (const stop of stops) stop();
  }
}

/**
 * Ours on PostgreSQL (the tool server with `--store`) against fastmcp-tasks on Redis with a separate Docket worker,
 * each its documented production setup: tasks created and polled to completion per second by 8 closed-loop HTTP
 * callers, and the median `tasks/get` latency. Skipped with a note when `pnpm interop:peers` has not installed it.
 */
export async function peerFastmcpCase(ctx) {
  const peer = installedPeer();
  const base = { case: 'peer-fastmcp', title: 'tasks vs fastmcp-tasks' };
  if (!peer.python) return [{ ...base, variant: 'skipped', note: `skipped: ${peer.reason}` }];
  const ours = await oursOnPostgres(ctx);
  // A failure of the peer's side (its start, its worker) is reported in the row, never as a failure of the bench.
  const theirs = await fastmcpOnRedis(ctx, peer).catch((error) => ({ error }));
  if (theirs.error) {
    const note = `fastmcp-tasks side failed: ${String(theirs.error.message ?? theirs.error).slice(0, 200)}`;
    return [
      { ...base, variant: 'tasks completed/s', ours: ours.rate, note },
      { ...base, variant: 'tasks/get latency (median)', ours: ours.poll, format: 'ms', unit: 'ms', note },
    ];
  }
  const note = 'ours: tool server on PostgreSQL; baseline: fastmcp-tasks 4.1.4 on Redis + 1 Docket worker; 8 callers';
  const ratio = (a, b) => summarize(a.values.map((v, i) => v / b.values[i]));
  return [
    {
      ...base,
      variant: 'tasks completed/s',
      ours: ours.rate,
      baseline: theirs.rate,
      ratio: ratio(ours.rate, theirs.rate),
      note,
    },
    {
      ...base,
      variant: 'tasks/get latency (median)',
      ours: ours.poll,
      baseline: theirs.poll,
      format: 'ms',
      unit: 'ms',
      note,
    },
  ];
}
