import {
  ErrorCode,
  type PeerSession,
  ProtocolError,
  type RequestContext,
  type TransportRequestId,
  withFields,
} from '@mcp-tasks/protocol';
import type { RequestEnvelope } from '../envelope.js';
import { invalidParams, methodNotFound } from '../errors.js';
import { isJsonObject, type JsonObject } from '../jsonRpc.js';
import { isLogLevel } from '../logLevels.js';
import type { InputChannel } from '../toolContext.js';
import type { RegisteredTool } from '../toolRegistry.js';
import { initializeSession, type LegacyIdentity } from './legacyInitialize.js';
import { PeerInputChannel, peerSendOf } from './legacyPeerInput.js';
import { serveWithPeerInput, toLegacyResult } from './legacyResults.js';
import { type LegacySessionState, LegacySessions } from './legacySessions.js';

/** One 2025-era request as the shared method routes see it. */
export interface LegacyRouteRequest {
  readonly id: TransportRequestId;
  readonly params: JsonObject;
  /** Built from the session: negotiated version, `initialize` capabilities and client info, session log level. */
  readonly envelope: RequestEnvelope;
  readonly context: RequestContext;
  readonly owner: string;
  /** Where a synchronous tool's questions go: straight to the client. */
  readonly syncInput?: InputChannel;
}

/** Serves one method of the shared route table (the same handlers as the 2026-07-28 wire); may throw synchronously. */
export type LegacyDispatch = (method: string, request: LegacyRouteRequest) => JsonObject | Promise<JsonObject>;

/**
 * A method served only in 2025-era sessions (the experimental task methods), or a 2025-only variant of a shared one
 * (task-augmented `tools/call`): `shared` serves the request the ordinary way, for a route that only handles some
 * forms of its method (e.g. `tools/call` without `params.task`).
 */
export type LegacyRoute = (
  request: LegacyRouteRequest & {
    readonly state: LegacySessionState;
    readonly shared: () => Promise<JsonObject>;
  },
) => Promise<JsonObject>;

/** Methods of the 2026-07-28 wire only: `-32601` in a 2025-era session. */
const MODERN_ONLY_METHODS: ReadonlySet<string> = new Set(['server/discover', 'subscriptions/listen', 'tasks/update']);

/**
 * The experimental task methods of 2025-11-25. They are served only through the `taskRoutes` given to
 * {@link LegacyEra}; without one a method here answers `-32601`.
 */
export const LEGACY_TASK_METHODS: readonly string[] = ['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel'];

/** What {@link LegacyEra} needs from the server. */
export interface LegacyEraOptions {
  readonly identity: LegacyIdentity;
  readonly maxSessions: number;
  readonly tools: ReadonlyMap<string, RegisteredTool>;
  readonly dispatch: LegacyDispatch;
  readonly owner: (context: RequestContext) => string;
  /** Routes of the legacy task methods ({@link LEGACY_TASK_METHODS}), and any other 2025-only method. */
  readonly taskRoutes?: ReadonlyMap<string, LegacyRoute>;
}

/**
 * The 2025-era layer of the server: the `initialize` handshake and per-session state, the session-level methods
 * (`ping`, `logging/setLevel`, `resources/(un)subscribe`), and every other method served through the shared routes
 * with an envelope built from the session, answered in 2025 shapes. The server calls it only for messages that are
 * not 2026-07-28 ones (`messageEra`) and arrived on a session.
 */
export class LegacyEra {
  readonly sessions: LegacySessions;
  readonly #options: LegacyEraOptions;

  constructor(options: LegacyEraOptions) {
    this.#options = options;
    this.sessions = new LegacySessions(options.maxSessions);
  }

  /**
   * True when this layer serves a 2025-era message on `session`: `initialize` and `ping` always, anything else
   * once the session is initialized. Other messages go down the 2026-07-28 path.
   */
  claims(kind: 'request' | 'notification', method: string, session: PeerSession | undefined): boolean {
    if (session === undefined) return false;
    if (kind === 'request' && (method === 'initialize' || method === 'ping')) return true;
    return this.sessions.get(session) !== undefined;
  }

  /** A notification on a claimed session: `notifications/initialized` completes the handshake; others need nothing. */
  notification(method: string, session: PeerSession): void {
    const state = this.sessions.get(session);
    if (state !== undefined && method === 'notifications/initialized') state.initialized = true;
  }

  /**
   * Serves a claimed request; throws protocol errors in their 2026 form (the caller maps them with toLegacyError),
   * synchronously or as a rejection: the caller awaits it inside its `try`. Not `async`, so the route's promise is
   * handed on without the two extra turns an async function returning a promise costs.
   */
  request(
    id: TransportRequestId,
    method: string,
    params: JsonObject,
    context: RequestContext,
  ): JsonObject | Promise<JsonObject> {
    const { session } = context;
    if (session === undefined) throw new Error('LegacyEra.request needs a session');
    if (method === 'initialize') {
      const { state, result } = initializeSession(session, params, this.#options.identity);
      if (session.closed.aborted)
        throw new ProtocolError(ErrorCode.InvalidRequest, 'Invalid request: the session has ended');
      this.sessions.open(state);
      return result;
    }
    if (method === 'ping') return {};
    const state = this.sessions.get(session);
    if (state === undefined) throw methodNotFound(method);
    const answered = this.#sessionMethod(method, params, state);
    if (answered !== undefined) return answered;
    const request: LegacyRouteRequest = {
      id,
      params,
      envelope: legacyEnvelope(state, params),
      context,
      owner: this.#options.owner(context),
    };
    const shared = () => this.#serveShared(method, request);
    const taskRoute = this.#options.taskRoutes?.get(method);
    return taskRoute === undefined ? shared() : taskRoute(withFields(request, { state, shared }));
  }

  /** Serves `method` through the shared routes, asking the client directly for input, in 2025 shapes. */
  async #serveShared(method: string, request: LegacyRouteRequest): Promise<JsonObject> {
    if (MODERN_ONLY_METHODS.has(method) || LEGACY_TASK_METHODS.includes(method)) throw methodNotFound(method);
    const { params, context } = request;
    if (method === 'tools/call') this.#checkSyncCall(params);
    const send = peerSendOf(context);
    // Read only when the client is asked something: a transport may create the signal on first use.
    const signal = () => context.signal;
    const syncInput = send === undefined ? undefined : new PeerInputChannel(send, signal);
    const run = (current: JsonObject) =>
      this.#options.dispatch(
        method,
        withFields(request, syncInput === undefined ? { params: current } : { params: current, syncInput }),
      );
    // Most calls need no input: their first answer is final, without the input loop's own async frame.
    const first = await run(params);
    return toLegacyResult(
      first.resultType === 'input_required' ? await serveWithPeerInput(run, params, first, send, signal) : first,
    );
  }

  /** `logging/setLevel` and `resources/(un)subscribe`: state of the session, answered `{}`. */
  #sessionMethod(method: string, params: JsonObject, state: LegacySessionState): JsonObject | undefined {
    switch (method) {
      case 'logging/setLevel': {
        if (!isLogLevel(params.level)) throw invalidParams('Invalid params: level must be a known log level');
        state.logLevel = params.level;
        return {};
      }
      case 'resources/subscribe':
      case 'resources/unsubscribe': {
        const { uri } = params;
        if (typeof uri !== 'string') throw invalidParams('Invalid params: uri must be a string');
        if (method === 'resources/subscribe') LegacySessions.subscribe(state, uri);
        else state.subscriptions.delete(uri);
        return {};
      }
      default:
        return undefined;
    }
  }

  /** A tool that runs only as a task cannot be called without one: `-32601` on this wire. */
  #checkSyncCall(params: JsonObject): void {
    const tool = typeof params.name === 'string' ? this.#options.tools.get(params.name) : undefined;
    if (tool?.taskSupport === 'required') {
      throw methodNotFound(`tools/call (tool ${tool.definition.name} runs only as a task: call it with params.task)`);
    }
  }
}

/**
 * The envelope of a 2025-era request: what the session fixed in `initialize` and `logging/setLevel`, plus this
 * request's own `_meta` (and its `progressToken`). Capabilities never include the 2026 Tasks extension: on this wire
 * only the experimental `tasks` capability counts.
 */
export function legacyEnvelope(state: LegacySessionState, params: JsonObject): RequestEnvelope {
  const meta = isJsonObject(params._meta) ? params._meta : {};
  const { extensions: _ignored, ...clientCapabilities } = state.clientCapabilities;
  const token = meta.progressToken;
  const progressToken = typeof token === 'string' || typeof token === 'number' ? token : undefined;
  return {
    protocolVersion: state.protocolVersion,
    clientCapabilities,
    clientInfo: state.clientInfo,
    ...(state.logLevel === undefined ? {} : { logLevel: state.logLevel }),
    ...(progressToken === undefined ? {} : { progressToken }),
    meta,
  };
}
