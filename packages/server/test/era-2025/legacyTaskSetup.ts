/** A real TaskRuntime on an InMemoryTaskStore with the 2025-11-25 task modules on top, for the legacyTasks tests. */
import { ProtocolError, type TransportNotification } from '@mcp-tasks/protocol';
import { InMemoryTaskStore } from '@mcp-tasks/task-store';
import { onTestFinished } from 'vitest';
import { z } from 'zod';
import type { RequestEnvelope } from '../../src/envelope.js';
import type { LegacyPeerAsk } from '../../src/era-2025/legacyPeerAsk.js';
import { LegacyResultStreams } from '../../src/era-2025/legacyResultStreams.js';
import { callToolAsLegacyTask, type LegacyTaskCallDeps } from '../../src/era-2025/legacyTaskCall.js';
import { LegacyTaskMethods } from '../../src/era-2025/legacyTaskMethods.js';
import { legacyTaskRoutes } from '../../src/era-2025/legacyTaskRoutes.js';
import type { JsonObject } from '../../src/jsonRpc.js';
import { TaskRuntime } from '../../src/taskRuntime.js';
import { type RegisteredTool, registerTool, type ToolDefinition } from '../../src/toolRegistry.js';
import { deferred, fakeContext } from '../harness.js';

export const ENVELOPE: RequestEnvelope = {
  protocolVersion: '2025-11-25',
  clientCapabilities: { elicitation: {}, sampling: {}, roots: {} },
  meta: {},
};

/** What the tools of the fixture do, controlled by the test. */
export function legacyFixture(
  options: {
    ttlMs?: number | null;
    listPageSize?: number;
    immediateResultMs?: number;
    envelope?: RequestEnvelope;
    maxTasksPerOwner?: number;
  } = {},
) {
  const gate = deferred();
  const aborted: string[] = [];
  const definitions: ToolDefinition[] = [
    {
      name: 'slow',
      description: 'Waits for the test to open the gate',
      taskSupport: 'optional',
      handler: async (_args, ctx) => {
        ctx.signal.addEventListener('abort', () => aborted.push(ctx.taskId ?? ''));
        await gate.promise;
        return { content: [{ type: 'text', text: 'slow done' }], structuredContent: { ok: true } };
      },
    },
    {
      name: 'quick',
      description: 'Answers at once',
      taskSupport: 'required',
      handler: () => ({ content: [{ type: 'text', text: 'quick' }] }),
    },
    {
      name: 'reports_error',
      description: 'Returns isError',
      taskSupport: 'optional',
      handler: () => ({ content: [{ type: 'text', text: 'disk full' }], isError: true }),
    },
    {
      name: 'rpc_error',
      description: 'Throws a JSON-RPC error',
      taskSupport: 'optional',
      handler: () => {
        throw new ProtocolError(-32050, 'Upstream refused', { upstream: 'db' });
      },
    },
    {
      name: 'confirm',
      description: 'Asks the user, then answers with what they said',
      taskSupport: 'optional',
      handler: async (_args, ctx) => {
        const answer = await ctx.elicit({
          message: 'Proceed?',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        });
        return { content: [{ type: 'text', text: `answer: ${JSON.stringify(answer)}` }] };
      },
    },
    {
      name: 'typed',
      description: 'Takes a number',
      taskSupport: 'optional',
      inputSchema: z.object({ n: z.number() }),
      handler: (args) => ({ content: [{ type: 'text', text: String((args as { n: number }).n) }] }),
    },
    {
      name: 'asks_later',
      description: 'Asks once the test opens the gate',
      taskSupport: 'optional',
      handler: async (_args, ctx) => {
        await gate.promise;
        const answer = await ctx.elicit({ message: 'Now?', requestedSchema: { type: 'object', properties: {} } });
        return { content: [{ type: 'text', text: `later: ${answer.action}` }] };
      },
    },
    {
      name: 'reports_progress',
      description: 'Reports progress and logs once',
      taskSupport: 'optional',
      handler: (_args, ctx) => {
        ctx.progress(1, 2, 'half way');
        ctx.log('info', 'hello');
        return { content: [{ type: 'text', text: 'reported' }] };
      },
    },
    {
      name: 'reports_later',
      description: 'Logs once the test opens the gate, long after its task was answered',
      taskSupport: 'optional',
      handler: async (_args, ctx) => {
        await gate.promise;
        ctx.log('info', 'later');
        return { content: [{ type: 'text', text: 'reported later' }] };
      },
    },
    {
      name: 'collects',
      description: 'Asks for a name before its task exists',
      taskSupport: 'required',
      collectInput: (_args, ctx) =>
        ctx.inputResponses.name === undefined
          ? ctx.inputRequired({
              inputRequests: {
                name: {
                  method: 'elicitation/create',
                  params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } },
                },
              },
              state: { round: 1 },
            })
          : undefined,
      handler: (_args, ctx) => ({
        content: [
          {
            type: 'text',
            text: `${JSON.stringify(ctx.inputResponses.name?.content)} ${JSON.stringify(ctx.requestState)}`,
          },
        ],
      }),
    },
    { name: 'plain', description: 'No task support', handler: () => ({ content: [] }) },
  ];
  const tools = new Map<string, RegisteredTool>(definitions.map((d) => [d.name, registerTool(d)]));
  const store = new InMemoryTaskStore(
    options.maxTasksPerOwner === undefined ? {} : { maxTasksPerOwner: options.maxTasksPerOwner },
  );
  const errors: unknown[] = [];
  const ttlMs = options.ttlMs === undefined ? 600_000 : options.ttlMs;
  const runtime = new TaskRuntime({
    store,
    ttlMs,
    pollIntervalMs: 500,
    immediateResultMs: options.immediateResultMs ?? 1_000,
    maxInputRequestsPerTask: 4,
    leaseMs: 30_000,
    keepFinishedMs: null,
    workerId: 'worker-legacy',
    tools,
    report: (error) => errors.push(error),
  });
  onTestFinished(async () => {
    gate.resolve();
    await runtime.close(100, false);
    await store.close();
  });
  const streams = new LegacyResultStreams();
  const deps: LegacyTaskCallDeps = {
    streams,
    tools,
    ops: runtime.ops,
    supervisor: runtime.supervisor,
    ttlMs,
    pollIntervalMs: 500,
    maxInputRequestsPerTask: 4,
  };
  const methods = new LegacyTaskMethods({
    streams,
    ops: runtime.ops,
    abortLocal: (taskId, reason) => runtime.supervisor.abort(taskId, reason),
    ...(options.listPageSize === undefined ? {} : { listPageSize: options.listPageSize }),
  });
  const routes = legacyTaskRoutes(methods);
  const notifications: TransportNotification[] = [];
  const asked: Array<{
    method: string;
    params: JsonObject;
    signal: AbortSignal;
    answer: (result: JsonObject) => void;
    refuse: (error: Error) => void;
  }> = [];
  const ask: LegacyPeerAsk = (request, signal) =>
    new Promise<JsonObject>((resolve, reject) => {
      const params = (request.params ?? {}) as JsonObject;
      asked.push({ method: request.method, params, signal, answer: resolve, refuse: reject });
    });

  /** A task-augmented tools/call as `owner`. */
  const call = (name: string, args: JsonObject = {}, task: JsonObject = {}, owner = 'session-a') =>
    callToolAsLegacyTask(deps, {
      params: { name, arguments: args, task },
      owner,
      envelope: options.envelope ?? ENVELOPE,
      context: fakeContext().context,
      ask,
      notify: (notification) => notifications.push(notification),
    });

  /** Runs one task method through the route table as `owner`. */
  const route = (method: string, params: JsonObject, owner = 'session-a', signal = new AbortController().signal) => {
    const handler = routes.get(method);
    if (handler === undefined) throw new Error(`no route ${method}`);
    return handler({ params, owner, signal });
  };

  /** The JSON-RPC error a call rejects with. */
  const rejection = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    if (!(error instanceof ProtocolError)) throw new Error(`expected a ProtocolError, got ${String(error)}`);
    return error.toJSON();
  };

  const tool = (name: string): RegisteredTool => {
    const found = tools.get(name);
    if (found === undefined) throw new Error(`no tool ${name}`);
    return found;
  };

  return {
    streams,
    gate,
    aborted,
    tool,
    tools,
    store,
    runtime,
    deps,
    methods,
    call,
    route,
    rejection,
    asked,
    notifications,
    errors,
  };
}
