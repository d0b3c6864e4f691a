// Our client (@mcp-tasks/client) through the task lifecycle against a peer's server, in one era.
import { InMemoryTaskJournal, McpClient } from '@mcp-tasks/client';
import { HttpClientTransport } from '@mcp-tasks/transport-http/client';
import { StdioClientTransport } from '@mcp-tasks/transport-stdio';

const accept = async () => ({ action: 'accept', content: { confirm: true } });

/** A client on `target` ({ url } or { command, args, env }); `tasks: false` leaves the Tasks extension out. */
async function openClient(target, { tasks = true } = {}) {
  const transport = target.url
    ? new HttpClientTransport({ url: target.url })
    : await StdioClientTransport.spawn({
        command: target.command,
        args: target.args,
        env: { ...process.env, ...target.env },
        stderr: 'ignore',
      });
  return new McpClient({
    transport,
    clientInfo: { name: 'mcp-tasks-interop', version: '0.0.0' },
    handlers: { elicitation: accept },
    tasks: tasks ? { journal: new InMemoryTaskJournal(), minIntervalMs: 50, maxIntervalMs: 500 } : false,
    // A stdio peer in Python takes seconds to import before it answers the era probe; past the default 5 s the
    // client would take it for a 2025-era server (docs/interop.md, "slow stdio start").
    probeTimeoutMs: target.url ? undefined : 30_000,
  });
}

const text = (result) => (result?.content ?? []).map((c) => c.text ?? '').join('');

/** The JSON-RPC code an error carries (ours: ProtocolError.code; a task failure: its cause's). */
export function errorCode(error) {
  for (let e = error; e; e = e.cause) if (typeof e.code === 'number') return e.code;
  return undefined;
}

function expect(condition, message) {
  if (!condition) throw new Error(message);
}

async function untilStatus(client, taskId, statuses, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await client.getTask(taskId);
    if (statuses.includes(task.status)) return task;
    expect(Date.now() < deadline, `task ${taskId} still ${task.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The 2026-07-28 (SEP-2663) cases: name → (client, target) => detail. */
export const modernCases = {
  immediate: async (client) => {
    const result = await client.callTool('greet', { name: 'peer' });
    expect(text(result).includes('Hello'), `greet answered ${JSON.stringify(result)}`);
    return text(result);
  },
  'create-poll': async (client) => {
    const started = await client.startTool('slow_compute', { seconds: 0.3 });
    expect(started.kind === 'task', `slow_compute was not a task: ${JSON.stringify(started)}`);
    const result = await client.callTool('slow_compute', { seconds: 0.3 });
    expect(text(result).includes('0.3'), `result ${JSON.stringify(result)}`);
    return text(result);
  },
  input: async (client) => {
    const result = await client.callTool('confirm_delete', { filename: 'a.txt' });
    expect(text(result).includes('deleted'), `result ${JSON.stringify(result)}`);
    return text(result);
  },
  cancel: async (client) => {
    const started = await client.startTool('slow_compute', { seconds: 30 });
    expect(started.kind === 'task', 'slow_compute was not a task');
    await client.cancelTask(started.task.taskId);
    const task = await untilStatus(client, started.task.taskId, ['cancelled', 'completed', 'failed']);
    expect(task.status === 'cancelled', `status ${task.status} after tasks/cancel`);
    return 'cancelled';
  },
  failure: async (client) => {
    const error = await client.callTool('protocol_error_job', {}).then(
      (r) => expect(false, `protocol_error_job completed: ${JSON.stringify(r)}`),
      (e) => e,
    );
    expect(error?.name === 'TaskFailedError', `expected TaskFailedError, got ${error}`);
    return `failed (${errorCode(error)})`;
  },
  isError: async (client) => {
    const result = await client.callTool('failing_job', {});
    expect(result.isError === true, `expected isError, got ${JSON.stringify(result)}`);
    return 'completed, isError';
  },
  ttl: async (client) => {
    const started = await client.startTool('slow_compute', { seconds: 0.2 });
    expect(started.kind === 'task', 'slow_compute was not a task');
    const task = await client.getTask(started.task.taskId);
    expect(task.ttlMs === started.task.ttlMs, `ttlMs ${started.task.ttlMs} at creation, ${task.ttlMs} in tasks/get`);
    const missing = await client.getTask('no-such-task').then(
      () => undefined,
      (e) => e,
    );
    expect(errorCode(missing) === -32602, `tasks/get of an unknown id: ${missing ?? 'no error'} (want -32602)`);
    return `ttlMs ${task.ttlMs}`;
  },
  'required-task-error': async (_client, target) => {
    const plain = await openClient(target, { tasks: false });
    try {
      const error = await plain.callTool('failing_job', {}).then(
        (r) => expect(false, `answered without the extension: ${JSON.stringify(r)}`),
        (e) => e,
      );
      expect(errorCode(error) === -32021, `expected -32021, got ${errorCode(error)} (${error?.message})`);
      return '-32021';
    } finally {
      await plain.close();
    }
  },
};

/** The 2025-11-25 experimental-tasks cases (params.task, tasks/get, tasks/result, tasks/cancel). */
export const legacyCases = {
  'create-poll': async (client) => {
    const result = await client.callTool('slow_compute', { seconds: 0.3 }, { task: { ttlMs: 60_000 } });
    expect(text(result).includes('0.3'), `result ${JSON.stringify(result)}`);
    return text(result);
  },
  input: async (client) => {
    const result = await client.callTool('confirm_delete', { filename: 'a.txt' }, { task: { ttlMs: 60_000 } });
    expect(text(result).includes('deleted'), `result ${JSON.stringify(result)}`);
    return text(result);
  },
  cancel: async (client) => {
    const signal = AbortSignal.timeout(500);
    const error = await client.callTool('slow_compute', { seconds: 30 }, { task: { ttlMs: 60_000 }, signal }).then(
      () => undefined,
      (e) => e,
    );
    expect(error !== undefined, 'the aborted call completed');
    return `aborted: ${error.name}`;
  },
  failure: async (client) => {
    const error = await client.callTool('protocol_error_job', {}, { task: { ttlMs: 60_000 } }).then(
      (r) => (r.isError ? undefined : expect(false, `completed: ${JSON.stringify(r)}`)),
      (e) => e,
    );
    if (error === undefined) return 'failed task with an isError result';
    expect(
      error.name === 'TaskFailedError',
      `expected TaskFailedError, got ${error.name}: ${error.message} ${error.cause?.message ?? ''}`,
    );
    return `TaskFailedError (${errorCode(error)})`;
  },
  isError: async (client) => {
    const result = await client.callTool('failing_job', {}, { task: { ttlMs: 60_000 } });
    expect(result.isError === true, `expected isError, got ${JSON.stringify(result)}`);
    return 'isError';
  },
  ttl: async (client) => {
    const result = await client.callTool('slow_compute', { seconds: 0.1 }, { task: true });
    expect(text(result).includes('0.1'), `result ${JSON.stringify(result)}`);
    return 'task without a requested ttl';
  },
  'required-task-error': async (client) => {
    const error = await client.request('tools/call', { name: 'failing_job', arguments: {} }).then(
      (r) => expect(false, `answered without params.task: ${JSON.stringify(r)}`),
      (e) => e,
    );
    expect(errorCode(error) === -32601, `expected -32601, got ${errorCode(error)} (${error?.message})`);
    return '-32601';
  },
};

/** Runs every case of an era against `target`, each with its own client and a deadline. */
export async function runOurClient(target, era) {
  const cases = era === '2025' ? legacyCases : modernCases;
  const results = [];
  for (const [name, run] of Object.entries(cases)) {
    let timer;
    let client;
    try {
      client = await openClient(target);
      const timeout = new Promise((_, rejectTimeout) => {
        timer = setTimeout(() => rejectTimeout(new Error('timed out after 30 s')), 30_000);
      });
      const detail = await Promise.race([run(client, target), timeout]);
      results.push({ case: name, ok: true, detail: String(detail ?? '') });
    } catch (error) {
      results.push({ case: name, ok: false, detail: String(error?.message ?? error).slice(0, 400) });
    } finally {
      clearTimeout(timer);
      await client?.close().catch(() => {});
    }
  }
  return results;
}
