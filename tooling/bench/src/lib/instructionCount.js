import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from './child.js';
import { httpHeaders, tasksGet } from './messages.js';

/** The default request: `tasks/get` of the server's working task, with its routing headers. */
async function tasksGetRequest(info) {
  const message = tasksGet(info.taskId ?? 'no-task');
  return { message, headers: httpHeaders(message) };
}

/**
 * Runs `servers/<name>.js` under callgrind (`valgrind` on `PATH`, or the binary `BENCH_VALGRIND` names), drives it
 * over loopback with one connection (`warmup` requests uncounted, then `requests` counted) and returns the main
 * thread's instructions per request. `request(info)` builds the request from the server's ready info (default: a
 * `tasks/get` of its working task).
 *
 * The requests go one after another with no deadline of any kind: under callgrind a server runs 50 to 100 times
 * slower, and a loaded machine slows it by as much again, so a per-request timeout (autocannon's 10 s, used before)
 * turned the machine's load into a failure. The count depends only on the number of requests.
 *
 * Why one connection: with ten, how many requests one event-loop turn serves varies from run to run, and so did the
 * count (by up to 4 %); with one, repeated counts agree within 0.8 %. Why the main thread only: the other threads are
 * V8's compiler and GC helpers and libuv's pool, whose counts under valgrind's serialized scheduling swing by half.
 * Not a steady state: later segments of the same process count fewer instructions per request (for ours and the
 * echo alike), because V8's optimizing compiler runs on helper threads that valgrind serializes, so optimized code
 * arrives late and the counted requests run mostly interpreted and baseline code (bench README, sixth pass). Compare
 * servers counted with the same `warmup` and `requests`; do not read the figures as steady-state costs.
 */
export async function countInstructions(name, { env = {}, warmup, requests, request = tasksGetRequest }) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-tasks-instructions-'));
  const server = await startServer(name, {
    env,
    execPath: process.env.BENCH_VALGRIND ?? 'valgrind',
    execArgv: [
      '--tool=callgrind',
      '--quiet',
      '--instr-atstart=no',
      '--separate-threads=yes',
      `--callgrind-out-file=${join(dir, 'cg.%p')}`,
      process.execPath,
    ],
  });
  try {
    const { message, headers } = await request(server.info);
    const load = (amount) => postSequentially(server.info.url, JSON.stringify(message), headers, amount);
    await load(warmup);
    const pid = String(server.child.pid);
    execFileSync('callgrind_control', ['--instr=on', pid], { stdio: 'ignore' });
    await load(requests);
    execFileSync('callgrind_control', ['--dump', pid], { stdio: 'ignore' });
    // Thread 1 of the dump is the main thread (`cg.<pid>.<dump>-01`).
    const main = readdirSync(dir).find((file) => file.endsWith('-01'));
    if (main === undefined) throw new Error(`${name}: callgrind wrote no main-thread dump in ${dir}`);
    const summary = readFileSync(join(dir, main), 'utf8').match(/^summary: (\d+)/m);
    if (summary === null) throw new Error(`${name}: no summary line in ${main}`);
    return Number(summary[1]) / requests;
  } finally {
    server.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * POSTs `body` to `url` `amount` times, each after the previous answer, over one kept-alive connection; rejects on a
 * status other than 2xx. No timeout: how long it takes is not what is measured.
 */
export async function postSequentially(url, body, headers, amount) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let sent = 0; sent < amount; sent++) await postOnce(url, body, headers, agent);
  } finally {
    agent.destroy();
  }
}

function postOnce(url, body, headers, agent) {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: 'POST', headers, agent }, (response) => {
      response.on('error', reject);
      response.resume();
      response.on('end', () => {
        if (response.statusCode >= 200 && response.statusCode < 300) resolve();
        else reject(new Error(`${url}: HTTP ${response.statusCode}`));
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
