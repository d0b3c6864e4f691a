// The hot paths the guard measures. Each `setup()` builds its subject once and returns `{ op, close }`: `op(i)` is
// one operation, `close()` stops the subject once its segments are measured, so no timer of an earlier path (a
// running task's lease renewal, a store's sweep) fires inside a later path's segment.
// The server and the messages are the benchmark's own (tooling/bench), over the deterministic store.
import { greetCall, tasksGet as tasksGetMessage } from '@mcp-tasks/bench/src/lib/messages.js';
import { legacyGreetCall, legacyInitialize } from '@mcp-tasks/bench/src/lib/sessions.js';
import { createRuntime, createWorkingTask } from '@mcp-tasks/bench/src/servers/oursRuntime.js';
import { TaskOperations } from '@mcp-tasks/task-store';
import { deterministicStore, fixedNow } from './deterministicStore.js';
import { httpEcho, httpTasksGet } from './httpPath.js';

const OWNER = 'perf-guard';
const TTL_MS = 3_600_000;
const CONTEXT = { notify() {}, signal: new AbortController().signal };

/**
 * A day-long lease: the runtime's lease keeper ticks on real time (every third of `leaseMs`, 10 s by default) and
 * sweeps with `Date.now()`, against which every record of the frozen-clock store looks long expired. A tick during a
 * slow callgrind run deleted a step's task (a flaky "task not found") and put a lease renewal into a segment.
 */
const TASKS = { pollIntervalMs: 1000, maxTasksPerPrincipal: 20_000, leaseMs: 86_400_000 };

function createServer() {
  return createRuntime({ taskStore: deterministicStore(), tasks: TASKS });
}

function expectResult(response, what) {
  if (response?.result === undefined) throw new Error(`${what} failed: ${JSON.stringify(response)}`);
}

/** `tasks/get` of a working task, dispatched in process through `McpServer.handle` (what every transport calls). */
async function tasksGet() {
  const server = createServer();
  const taskId = await createWorkingTask(server);
  return {
    op: async (i) => expectResult(await server.handle(tasksGetMessage(taskId, i), CONTEXT), 'tasks/get'),
    close: () => server.close({ graceMs: 0 }),
  };
}

/** A synchronous `tools/call` (no Tasks extension declared, so it never becomes a task) through `McpServer.handle`. */
async function toolsCall() {
  const server = createServer();
  return {
    op: async (i) => expectResult(await server.handle(greetCall(i, 'perf'), CONTEXT), 'tools/call'),
    close: () => server.close({ graceMs: 0 }),
  };
}

/**
 * A context on one 2025-era session, as a session-carrying transport hands it over: `session` names it, `request`
 * would ask its client (never called by `greet`).
 */
function legacyContext() {
  const session = {
    id: 'perf-guard-session',
    closed: new AbortController().signal,
    notify() {},
    request: async () => {
      throw new Error('greet asks the client nothing');
    },
  };
  return { ...CONTEXT, session, request: session.request };
}

/**
 * A synchronous `tools/call` in a 2025-era session (after `initialize` and `notifications/initialized` once),
 * through `McpServer.handle`: the path every 2025-era client takes.
 */
async function legacyToolsCall() {
  const server = createServer();
  const context = legacyContext();
  expectResult(await server.handle(legacyInitialize(), context), 'initialize');
  await server.handle({ jsonrpc: '2.0', method: 'notifications/initialized' }, context);
  return {
    op: async (i) => expectResult(await server.handle(legacyGreetCall(i, 'perf'), context), '2025-era tools/call'),
    close: () => server.close({ graceMs: 0 }),
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
  const op = async () => {
    const task = await ops.create(OWNER, { ttlMs: TTL_MS });
    const asked = await ops.requestInput(OWNER, task.taskId, INPUT_REQUEST);
    await ops.resolveInputs(OWNER, task.taskId, { [asked.key]: ANSWER });
    const done = await ops.complete(OWNER, task.taskId, RESULT);
    if (!done.won) throw new Error(`complete failed: ${JSON.stringify(done)}`);
  };
  return { op, close: () => store.close() };
}

/** The measured paths by name, in report order. */
export const PATHS = {
  'tasks-get': tasksGet,
  'store-transitions': storeTransitions,
  'tools-call': toolsCall,
  'legacy-tools-call': legacyToolsCall,
  'http-echo': () => httpEcho(createServer),
  'http-tasks-get': () => httpTasksGet(createServer),
};
