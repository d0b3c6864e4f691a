import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { postJson } from './httpLoad.js';
import { httpHeaders, requestMeta, TASKS_CAPS } from './messages.js';

const TOOL_SERVER = fileURLToPath(
  new URL('../../node_modules/@mcp-tasks/app-tool-server/dist/main.js', import.meta.url),
);

/**
 * The sample tool server (`--tools demo`) as a real process on the database `store`, as instance `id`, with `extra`
 * arguments last; `onSpawn(pid)` runs as soon as it exists (to cap its CPU from the start). With `--log-level info` every execution event (step, parked, handed_back, claimed) is one JSON line
 * on stderr with its `time` (ms since the epoch); `events()` parses those seen so far. Resolves once it listens (or,
 * as a worker, once it runs).
 */
export async function startToolServer(id, store, extra = [], onSpawn = () => undefined) {
  const args = ['--transport', 'http', '--port', '0', '--tools', 'demo', '--store', store, '--instance-id', id];
  const child = spawn(process.execPath, [TOOL_SERVER, ...args, ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = once(child, 'exit');
  onSpawn(child.pid);
  let stderr = '';
  child.stderr.setEncoding('utf8');
  const url = await new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+\/mcp)|(worker running durable tasks)/.exec(stderr);
      if (match) resolve(match[1] ?? '');
    });
    void exited.then(() => reject(new Error(`tool server ${id} exited before it ran: ${stderr}`)));
  });
  const end = async (signal) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await exited;
  };
  return {
    id,
    url,
    pid: child.pid,
    events: () => parseEvents(stderr),
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
  };
}

function parseEvents(text) {
  const events = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const event = JSON.parse(line);
      if (typeof event.type === 'string' && typeof event.taskId === 'string') events.push(event);
    } catch {
      // a line cut short by a kill
    }
  }
  return events;
}

/** Starts `tool` with `args` as a task at `url` (a client declaring `caps`); resolves with its id. */
export async function startTask(url, tool, args, caps = TASKS_CAPS) {
  const call = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: tool, arguments: args, _meta: requestMeta(caps) },
  };
  const created = await postJson(url, call, httpHeaders(call));
  const taskId = created.result?.taskId;
  if (typeof taskId !== 'string') throw new Error(`no task: ${JSON.stringify(created)}`);
  return taskId;
}

/** Polls `condition` every 20 ms until it holds; throws after `timeoutMs`. */
export async function waitUntil(condition, timeoutMs, what) {
  for (const deadline = Date.now() + timeoutMs; !(await condition()); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
