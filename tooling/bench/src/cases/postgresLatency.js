import { McpServer } from '@mcp-tasks/server';
import { PostgresTaskStore } from '@mcp-tasks/store-postgres';
import { errorsUntilClosed } from '../lib/closingErrors.js';
import { requestMeta, TASKS_CAPS } from '../lib/messages.js';
import { percentile, summarize } from '../lib/stats.js';

const META = requestMeta({ ...TASKS_CAPS, elicitation: {} });
const ASK = { message: 'Go?', requestedSchema: { type: 'object', properties: {} } };
let nextId = 1;

/**
 * One server instance on its own store (its own pool and LISTEN connection) of the shared table: two of them in this
 * process share nothing but the database. Its `wait` tool asks one question and reports when it resumes or aborts.
 */
function instance(url, workerId, events) {
  const errors = errorsUntilClosed(`PostgresTaskStore (${workerId})`);
  const store = new PostgresTaskStore({ connectionString: url, table: 'bench_instances', onError: errors.onError });
  const server = new McpServer({
    serverInfo: { name: workerId, version: '0.0.0' },
    taskStore: store,
    closeTaskStore: true,
    tasks: { workerId },
  });
  server.tool({
    name: 'wait',
    description: 'Asks one question; reports when the answer arrives or the task is cancelled',
    taskSupport: 'required',
    handler: async (_args, ctx) => {
      ctx.signal.addEventListener('abort', () => events.aborted?.(performance.now()));
      await ctx.elicit(ASK);
      events.resumed?.(performance.now());
      return { content: [] };
    },
  });
  const call = async (method, params) => {
    const context = { notify: () => undefined, signal: new AbortController().signal };
    const response = await server.handle(
      { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: META } },
      context,
    );
    if (response?.result === undefined) throw new Error(`${method}: ${JSON.stringify(response?.error)}`);
    return response.result;
  };
  return { server, call, errors };
}

/** Starts a task at `a` and resolves with its id and pending question key once `b` sees it waiting. */
async function waitingTask(a, b) {
  const { taskId } = await a.call('tools/call', { name: 'wait', arguments: {} });
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
    const task = await b.call('tasks/get', { taskId });
    if (task.status === 'input_required') return { taskId, key: Object.keys(task.inputRequests)[0] };
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`task ${taskId} never asked`);
}

/** Times `samples` rounds of: a waiting task on A, `act` at B, until A's tool sees `event`. */
async function timeRounds(a, b, events, samples, event, act) {
  const latencies = [];
  for (let i = 0; i < samples; i++) {
    const task = await waitingTask(a, b);
    const seen = new Promise((resolve) => {
      events[event] = resolve;
    });
    const start = performance.now();
    await act(task);
    latencies.push((await seen) - start);
    events[event] = undefined;
  }
  return latencies;
}

/**
 * Cross-instance latency through PostgreSQL alone: an answer given at B until the tool waiting at A resumes, and a
 * cancel at B until the tool running at A observes its abort signal; p50 and p99 over sequential rounds.
 */
export async function crossInstanceLatency(ctx, url) {
  const events = {};
  const a = instance(url, 'bench-a', events);
  const b = instance(url, 'bench-b', {});
  const samples = ctx.quick ? 20 : 200;
  try {
    await waitingTask(a, b); // creates the table and warms both pools before anything is timed
    const wake = await timeRounds(a, b, events, samples, 'resumed', ({ taskId, key }) =>
      b.call('tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: {} } } }),
    );
    const cancel = await timeRounds(a, b, events, samples, 'aborted', ({ taskId }) =>
      b.call('tasks/cancel', { taskId }),
    );
    const rows = [];
    for (const [variant, values] of [
      ['wake-up (answer at B → tool on A resumes)', wake],
      ['cancel (cancel at B → tool on A aborted)', cancel],
    ]) {
      for (const p of [50, 99]) {
        rows.push({
          case: 'postgres',
          title: `cross-instance latency on PostgreSQL, ${samples} rounds`,
          variant: `${variant} p${p}`,
          unit: 'ms',
          format: 'ms',
          ours: summarize([percentile(values, p)]),
          goal: p === 99 ? { on: 'ours', max: 20, text: '< 20 ms' } : undefined,
        });
        ctx.progress(rows.at(-1));
      }
    }
    return rows;
  } finally {
    await Promise.all([a.server.close(), b.server.close()]);
    a.errors.closed();
    b.errors.closed();
  }
}
