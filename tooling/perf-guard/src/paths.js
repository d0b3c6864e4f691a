// The hot paths the guard measures. Each `setup()` builds its subject once and returns `op(i)`, one operation.
import { LATEST_PROTOCOL_VERSION, META, TASKS_EXTENSION_ID } from '@mcp-tasks/protocol';
import { McpServer } from '@mcp-tasks/server';
import { TaskOperations } from '@mcp-tasks/task-store';
import { z } from 'zod';
import { deterministicStore, fixedNow } from './deterministicStore.js';

const OWNER = 'perf-guard';
const TTL_MS = 3_600_000;

function requestMeta(capabilities) {
  return {
    [META.protocolVersion]: LATEST_PROTOCOL_VERSION,
    [META.clientInfo]: { name: 'perf-guard', version: '0.0.0' },
    [META.clientCapabilities]: capabilities,
  };
}

/** A server with a synchronous tool (`greet`) and a task that stays working (`hold`), over the fixed store. */
function createServer() {
  const server = new McpServer({
    serverInfo: { name: 'perf-guard', version: '0.0.0' },
    taskStore: deterministicStore(),
  });
  server.tool({
    name: 'greet',
    description: 'Says hello',
    inputSchema: z.object({ name: z.string() }),
    handler: ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
  });
  server.tool({
    name: 'hold',
    description: 'A task that stays working until cancelled',
    taskSupport: 'required',
    handler: (_args, ctx) =>
      new Promise((resolve) => {
        ctx.signal.addEventListener('abort', () => resolve({ content: [{ type: 'text', text: 'cancelled' }] }));
      }),
  });
  return server;
}

function expectResult(response, what) {
  if (response?.result === undefined) throw new Error(`${what} failed: ${JSON.stringify(response)}`);
  return response.result;
}

/** `tasks/get` of a working task, dispatched in process through `McpServer.handle` (what every transport calls). */
async function tasksGet() {
  const server = createServer();
  const context = { notify() {}, signal: new AbortController().signal };
  const tasksMeta = requestMeta({ extensions: { [TASKS_EXTENSION_ID]: {} } });
  const created = expectResult(
    await server.handle(
      { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'hold', arguments: {}, _meta: tasksMeta } },
      context,
    ),
    'creating the task',
  );
  const taskId = created.task?.taskId ?? created.taskId;
  if (typeof taskId !== 'string') throw new Error(`hold did not create a task: ${JSON.stringify(created)}`);
  return async (i) => {
    const message = { jsonrpc: '2.0', id: i, method: 'tasks/get', params: { taskId, _meta: tasksMeta } };
    expectResult(await server.handle(message, context), 'tasks/get');
  };
}

/** A synchronous `tools/call` (no Tasks extension declared, so it never becomes a task) through `McpServer.handle`. */
async function toolsCall() {
  const server = createServer();
  const context = { notify() {}, signal: new AbortController().signal };
  const meta = requestMeta({});
  return async (i) => {
    const message = {
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'greet', arguments: { name: 'perf' }, _meta: meta },
    };
    expectResult(await server.handle(message, context), 'tools/call');
  };
}

const INPUT_REQUEST = {
  method: 'elicitation/create',
  params: { message: 'ok?', requestedSchema: { type: 'object', properties: {} } },
};
const ANSWER = { action: 'accept' };
const RESULT = { content: [{ type: 'text', text: 'ok' }] };

/**
 * One task's life through the store's public API, as the server drives it: create (working) → input_required →
 * answered (working) → completed, with `TaskOperations` over `InMemoryTaskStore`.
 */
async function storeTransitions() {
  const store = deterministicStore();
  const ops = new TaskOperations(store, { now: fixedNow });
  return async () => {
    const task = await ops.create(OWNER, { ttlMs: TTL_MS });
    const asked = await ops.requestInput(OWNER, task.taskId, INPUT_REQUEST);
    await ops.resolveInputs(OWNER, task.taskId, { [asked.key]: ANSWER });
    const done = await ops.complete(OWNER, task.taskId, RESULT);
    if (!done.won) throw new Error(`complete failed: ${JSON.stringify(done)}`);
  };
}

/** The measured paths by name, in report order. */
export const PATHS = {
  'tasks-get': tasksGet,
  'store-transitions': storeTransitions,
  'tools-call': toolsCall,
};
