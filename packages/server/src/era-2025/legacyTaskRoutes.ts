import { invalidParams } from '../errors.js';
import type { JsonObject } from '../jsonRpc.js';
import type { LegacyPeerAsk } from './legacyPeerAsk.js';
import type { LegacyTaskMethods } from './legacyTaskMethods.js';

/** One 2025-11-25 task request, as the server's legacy layer hands it over. */
export interface LegacyTaskRouteRequest {
  /** The request's params (`_meta` and unknown members are ignored; `params.taskId` names the task). */
  readonly params: JsonObject;
  /** Who owns the tasks: the principal, or for an unauthenticated session a value naming the session. */
  readonly owner: string;
  /** The request's signal: aborting it ends a waiting `tasks/result` (it rejects with the signal's reason). */
  readonly signal: AbortSignal;
  /**
   * The way to the client on this request's own stream (over Streamable HTTP), where the transport has one: a
   * waiting `tasks/result` offers it for the task's questions.
   */
  readonly ask?: LegacyPeerAsk | undefined;
  /** The way to the client through its session: a durable task's stored questions go there when `ask` is absent. */
  readonly session?: LegacyPeerAsk | undefined;
}

/** Serves one 2025-11-25 task method: resolves with its result, rejects with a `ProtocolError` to answer. */
export type LegacyTaskRoute = (request: LegacyTaskRouteRequest) => Promise<JsonObject>;

function readTaskId(params: JsonObject): string {
  if (typeof params.taskId !== 'string') throw invalidParams('Invalid params: taskId must be a string');
  return params.taskId;
}

function readCursor(params: JsonObject): string | undefined {
  if (params.cursor !== undefined && typeof params.cursor !== 'string') {
    throw invalidParams('Invalid params: cursor must be a string');
  }
  return params.cursor;
}

/**
 * The 2025-11-25 task methods by method name (`tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`), for a
 * session that negotiated 2025-11-25 (other sessions answer them `-32601`). A missing or non-string `taskId` or
 * `cursor` is `-32602`.
 */
export function legacyTaskRoutes(methods: LegacyTaskMethods): ReadonlyMap<string, LegacyTaskRoute> {
  return new Map<string, LegacyTaskRoute>([
    // Async, so a malformed param rejects like every other error instead of throwing at the caller.
    ['tasks/get', async ({ params, owner }) => methods.get(owner, readTaskId(params))],
    [
      'tasks/result',
      async ({ params, owner, signal, ask, session }) =>
        methods.result(owner, readTaskId(params), signal, ask, session),
    ],
    ['tasks/list', async ({ params, owner }) => methods.list(owner, readCursor(params))],
    ['tasks/cancel', async ({ params, owner }) => methods.cancel(owner, readTaskId(params))],
  ]);
}
