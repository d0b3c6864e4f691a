/**
 * Answers what a 2025-era server sends on its own: `ping`, and `elicitation/create`, `sampling/createMessage`,
 * `roots/list` with the same handlers (and consent flow) that answer 2026-07-28 input requests.
 */
import {
  type ClientPeerHandler,
  ErrorCode,
  InputRequestSchema,
  isRecord,
  type LegacyClientCapabilities,
  onAbort,
  RELATED_TASK_META_KEY,
  type TransportNotification,
  type TransportRequest,
  type TransportResponse,
} from '@mcp-tasks/protocol';
import { type InputHandlers, type InputOrigin, resolveInputRequests } from '../inputResolver.js';
import type { LegacyTaskReceiver } from './legacyTaskReceiver.js';

/** The client calls in flight in a 2025-era session, so a server request can be tied to the call it serves. */
export class CallsInFlight {
  /** Each call in flight, with the signal that aborts it (when the application gave one). */
  readonly #calls = new Map<InputOrigin, AbortSignal | undefined>();

  /** Records `origin`, aborted by `signal`, until the returned function is called. */
  add(origin: InputOrigin, signal?: AbortSignal): () => void {
    this.#calls.set(origin, signal);
    return () => this.#calls.delete(origin);
  }

  /** The signal of the call `origin` names, while it is in flight. */
  signalOf(origin: InputOrigin): AbortSignal | undefined {
    return this.#calls.get(origin);
  }

  /**
   * The call a server request belongs to: the one running task `taskId` when the request names a related task,
   * else the only call in flight; undefined when that is ambiguous (the server does not say which request asks).
   */
  originOf(taskId: string | undefined): InputOrigin | undefined {
    const calls = [...this.#calls.keys()];
    if (taskId !== undefined) {
      const match = calls.find((call) => call.taskId === taskId);
      if (match !== undefined) return match;
    }
    return calls.length === 1 ? calls[0] : undefined;
  }
}

/** Options of {@link legacyPeerHandler}. */
export interface LegacyPeerHandlerOptions {
  readonly handlers: InputHandlers;
  /** What the session declared; undeclared methods and modes are refused. */
  readonly capabilities: () => LegacyClientCapabilities;
  readonly calls: CallsInFlight;
  /** Runs task-augmented requests when the session declared `tasks`. */
  readonly receiver: LegacyTaskReceiver;
  /** Sees every notification that belongs to none of the client's requests. */
  readonly onNotification: (notification: TransportNotification) => void;
}

/** Builds the receiver of server-initiated messages installed on transports that carry 2025-era sessions. */
export function legacyPeerHandler(options: LegacyPeerHandlerOptions): ClientPeerHandler {
  return {
    onRequest: async (request, { signal }) => {
      try {
        return respond(request, await answer(request, signal, options));
      } catch (error) {
        if (error instanceof PeerError) return respondError(request, error.code, error.message);
        return respondError(request, ErrorCode.InternalError, error instanceof Error ? error.message : String(error));
      }
    },
    onNotification: (notification) => options.onNotification(notification),
  };
}

class PeerError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const ANSWERED = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);

async function answer(
  request: TransportRequest,
  signal: AbortSignal,
  options: LegacyPeerHandlerOptions,
): Promise<Readonly<Record<string, unknown>>> {
  if (request.method === 'ping') return {};
  const declared = options.capabilities();
  if (request.method.startsWith('tasks/') && declared.tasks !== undefined) {
    const answered = await options.receiver.answer(request.method, request.params ?? {});
    if (answered !== undefined && 'error' in answered) throw new PeerError(answered.error.code, answered.error.message);
    if (answered !== undefined) return answered.result;
  }
  if (!ANSWERED.has(request.method) || !isDeclared(request.method, declared))
    throw new PeerError(ErrorCode.MethodNotFound, `${request.method} is not supported by this client`);
  const { task, ...params } = { ...request.params };
  if (request.method === 'elicitation/create') {
    // No mode means form mode; a mode the session did not declare is refused.
    const mode = params.mode ?? 'form';
    const modes = declared.elicitation ?? {};
    const modeless = modes.form === undefined && modes.url === undefined;
    if (!(mode === 'form' && modeless) && !(typeof mode === 'string' && Object.hasOwn(modes, mode)))
      throw new PeerError(ErrorCode.InvalidParams, `elicitation mode ${JSON.stringify(mode)} was not declared`);
    params.mode = mode;
  }
  const parsed = InputRequestSchema.safeParse({ method: request.method, params });
  if (!parsed.success) throw new PeerError(ErrorCode.InvalidParams, `invalid ${request.method} params`);
  const taskId = relatedTaskId(request.params?._meta);
  const call = options.calls.originOf(taskId);
  const origin = call ?? { method: request.method };
  const key = String(request.id);
  const work = async (workSignal: AbortSignal): Promise<Readonly<Record<string, unknown>>> => {
    const responses = await resolveInputRequests({ [key]: parsed.data }, options.handlers, workSignal, {
      ...origin,
      ...(taskId === undefined ? {} : { taskId }),
    });
    return responses[key] ?? {};
  };
  // Task-augmented only when declared for this method; otherwise `task` is ignored.
  if (isRecord(task) && acceptsTask(request.method, declared)) {
    const ttl = typeof task.ttl === 'number' && Number.isInteger(task.ttl) && task.ttl >= 0 ? task.ttl : undefined;
    return options.receiver.create(work, ttl);
  }
  // The handler stops when the server withdraws its request or when the call it serves is aborted: a server that
  // does not withdraw the question when the call's task is cancelled must not leave a prompt open.
  const callSignal = call === undefined ? undefined : options.calls.signalOf(call);
  const result =
    callSignal === undefined ? await work(signal) : await withEither(signal, callSignal, work).catch(abandoned);
  function abandoned(error: unknown): Readonly<Record<string, unknown>> {
    // An elicitation left because its call was aborted is one the user dismissed; anything else fails as before.
    if (callSignal?.aborted === true && !signal.aborted && request.method === 'elicitation/create') {
      return { action: 'cancel' };
    }
    throw error;
  }
  // Answers to a task's requests carry the task too.
  return taskId === undefined ? result : { ...result, _meta: { [RELATED_TASK_META_KEY]: { taskId } } };
}

/** Runs `work` with a signal that aborts when `a` or `b` does (the first reason wins), unlinking both after. */
async function withEither<T>(a: AbortSignal, b: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const abortWith = (source: AbortSignal) => () => controller.abort(source.reason);
  if (a.aborted || b.aborted) controller.abort((a.aborted ? a : b).reason);
  const unlink = [onAbort(a, abortWith(a)), onAbort(b, abortWith(b))];
  try {
    return await work(controller.signal);
  } finally {
    for (const remove of unlink) remove();
  }
}

function acceptsTask(method: string, declared: LegacyClientCapabilities): boolean {
  const requests = declared.tasks?.requests;
  if (method === 'elicitation/create') return requests?.elicitation?.create !== undefined;
  return method === 'sampling/createMessage' && requests?.sampling?.createMessage !== undefined;
}

function isDeclared(method: string, declared: LegacyClientCapabilities): boolean {
  if (method === 'elicitation/create') return declared.elicitation !== undefined;
  if (method === 'sampling/createMessage') return declared.sampling !== undefined;
  return declared.roots !== undefined;
}

function relatedTaskId(meta: unknown): string | undefined {
  const related = isRecord(meta) ? meta[RELATED_TASK_META_KEY] : undefined;
  return isRecord(related) && typeof related.taskId === 'string' ? related.taskId : undefined;
}

function respond(request: TransportRequest, result: Readonly<Record<string, unknown>>): TransportResponse {
  return { jsonrpc: '2.0', id: request.id, result };
}

function respondError(request: TransportRequest, code: number, message: string): TransportResponse {
  return { jsonrpc: '2.0', id: request.id, error: { code, message } };
}
