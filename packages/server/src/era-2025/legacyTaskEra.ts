import { hasLegacyTasks, type PeerSession, type RequestContext } from '@mcp-tasks/protocol';
import type { RequestEnvelope } from '../envelope.js';
import { methodNotFound } from '../errors.js';
import { isJsonObject, type JsonObject } from '../jsonRpc.js';
import type { TaskRuntime } from '../taskRuntime.js';
import type { LegacyPeerAsk } from './legacyPeerAsk.js';
import { type PeerSend, peerResult } from './legacyPeerInput.js';
import { LegacyResultStreams } from './legacyResultStreams.js';
import { callToolAsLegacyTask, type LegacyTaskCallDeps, legacyToolCallMode } from './legacyTaskCall.js';
import { LegacyTaskMethods } from './legacyTaskMethods.js';
import { legacyTaskRoutes } from './legacyTaskRoutes.js';
import { legacyToolWire } from './legacyTaskWire.js';

/** One request of an initialized 2025-era session, as the server's legacy layer routes it. */
export interface LegacySessionRouteRequest {
  readonly params: JsonObject;
  /** Who owns the session's tasks: the principal, or a value naming the session when there is none. */
  readonly owner: string;
  /** Built from the session (negotiated version, `initialize` capabilities, log level) and this request. */
  readonly envelope: RequestEnvelope;
  readonly context: RequestContext;
  /** The session's state: its negotiated version and the session itself. */
  readonly state: { readonly protocolVersion: string; readonly session: PeerSession };
  /** Serves the request the ordinary way (a `tools/call` without `params.task`). */
  readonly shared: () => Promise<JsonObject>;
}

/** Serves one method in a 2025-era session; may throw synchronously (the caller awaits it inside its `try`). */
export type LegacySessionRoute = (request: LegacySessionRouteRequest) => Promise<JsonObject>;

/** A JSON-RPC error answer rejects with a {@link PeerRequestError} naming the method and the client's code. */
export function peerAsk(send: PeerSend): LegacyPeerAsk {
  return (request, signal) => peerResult(send, request, signal);
}

/**
 * The routes of the experimental tasks for the legacy layer, by method: `tools/call` (task-augmented in a
 * 2025-11-25 session; anything else goes to `shared`), `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`
 * (`-32601` in sessions of older versions). Task questions go to the client on the stream of a waiting
 * `tasks/result` of the task (when `call.streams` and `methods` share one {@link LegacyResultStreams}), else as
 * requests in its session; status notifications go to the session until it closes.
 */
export function legacyTaskEraRoutes(
  call: LegacyTaskCallDeps,
  methods: LegacyTaskMethods,
): ReadonlyMap<string, LegacySessionRoute> {
  const routes = new Map<string, LegacySessionRoute>();
  // Not `async`: a plain call hands on the shared route's promise without two extra turns.
  routes.set('tools/call', (request) => {
    const { params, state } = request;
    if (!hasLegacyTasks(state.protocolVersion) || legacyToolCallMode(call.tools, params) !== 'task') {
      return request.shared();
    }
    const { session } = state;
    return callToolAsLegacyTask(call, {
      params,
      owner: request.owner,
      envelope: request.envelope,
      context: request.context,
      // Through the session, never the stream of this request: that one ends with the `{ task }` answer.
      ask: peerAsk((message, options) => session.request(message, options)),
      notify: (notification) => session.notify(notification),
      sessionClosed: session.closed,
    });
  });
  for (const [method, route] of legacyTaskRoutes(methods)) {
    routes.set(method, async ({ params, owner, context, state }) => {
      if (!hasLegacyTasks(state.protocolVersion)) throw methodNotFound(method);
      const { request } = context;
      const { session } = state;
      const ask =
        request === undefined ? undefined : peerAsk((message, options) => request.call(context, message, options));
      return route({
        params,
        owner,
        signal: context.signal,
        ask,
        // Only a `tasks/result` may send questions (a durable task's, from the store) through the session.
        session:
          method === 'tasks/result' ? peerAsk((message, options) => session.request(message, options)) : undefined,
      });
    });
  }
  return routes;
}

/** What {@link createLegacyTaskRoutes} needs from the server. */
export interface LegacyTaskRoutesDeps extends Omit<LegacyTaskCallDeps, 'streams' | 'ops' | 'supervisor'> {
  readonly runtime: TaskRuntime;
  /** Most tasks on one `tasks/list` page. */
  readonly listPageSize: number;
}

/**
 * Every 2025-11-25-only route of the server, built once: the task routes of {@link legacyTaskEraRoutes} sharing one
 * {@link LegacyResultStreams}, and `tools/list`, which in a 2025-11-25 session shows each tool's
 * `execution.taskSupport` (only that version advertises `tasks.requests.tools.call`).
 */
export function createLegacyTaskRoutes(deps: LegacyTaskRoutesDeps): ReadonlyMap<string, LegacySessionRoute> {
  const { runtime, tools } = deps;
  const streams = new LegacyResultStreams();
  const { telemetry } = runtime;
  const methods = new LegacyTaskMethods({
    ops: runtime.ops,
    abortLocal: (taskId, reason) => runtime.supervisor.abort(taskId, reason),
    listPageSize: deps.listPageSize,
    streams,
    onPoll: telemetry === undefined ? undefined : (record) => telemetry.poll(record),
  });
  const call: LegacyTaskCallDeps = { ...deps, ops: runtime.ops, supervisor: runtime.supervisor, streams };
  const routes = new Map(legacyTaskEraRoutes(call, methods));
  routes.set('tools/list', async ({ state, shared }) => {
    const page = await shared();
    if (!hasLegacyTasks(state.protocolVersion) || !Array.isArray(page.tools)) return page;
    const listed = page.tools.map((wire) => {
      const tool = isJsonObject(wire) && typeof wire.name === 'string' ? tools.get(wire.name) : undefined;
      return tool === undefined ? wire : legacyToolWire(tool);
    });
    return { ...page, tools: listed };
  });
  return routes;
}
