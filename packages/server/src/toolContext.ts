import {
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestParams,
  type ElicitResult,
  type InputRequest,
  type InputResponse,
  type ListRootsResult,
  META,
  type TransportNotification,
} from '@mcp-tasks/protocol';
import { type AbortSource, CallAbort, callAbortOf } from './callAbort.js';
import { missingCapabilityFor } from './capabilities.js';
import type { RequestEnvelope } from './envelope.js';
import { missingCapability } from './errors.js';
import type { InputChannel, MrtrInfo, ToolMode } from './inputChannel.js';
import type { JsonInterner } from './jsonInterner.js';
import { isJsonObject, type JsonObject } from './jsonRpc.js';
import { type LogLevel, passesLogLevel } from './logLevels.js';
import { InputRequired } from './mrtr.js';
import { ReplayInputChannel } from './mrtrReplay.js';

/** What every handler learns about the request it serves. */
export interface RequestInfo {
  /** The authenticated principal, or undefined on unauthenticated transports. */
  readonly principal: string | undefined;
  /** The protocol version this request is served under (`2026-07-28`, or the 2025-era session's version). */
  readonly protocolVersion: string;
  /** This request's `clientCapabilities` (for a task: those of the request that created it). */
  readonly clientCapabilities: JsonObject;
  /**
   * This request's whole `_meta`. For a task, once its `CreateTaskResult` is sent, a deep-frozen copy shared with
   * the other tasks whose `_meta` is equal (so many waiting tasks of one client keep one); read it, never change it.
   */
  readonly meta: JsonObject;
  /**
   * Aborted when the client goes away (sync calls, and task-mode calls until their answer is decided, e.g. during
   * the immediate-result grace period), or when the task is cancelled, expires or the server closes. Long work
   * should watch it.
   */
  readonly signal: AbortSignal;
  /**
   * Calls `listener` once, with the abort reason, when {@link signal} aborts; at once (synchronously) when it already
   * has. The same events as `signal` without making it: a task's `AbortSignal` is made on first read, and in Node 20
   * one costs about a kilobyte of heap with a listener, which adds up for a tool that keeps tens of thousands of
   * tasks waiting. Adding one allocates nothing. A task call's abort also fires once the call has ended (its tool
   * settled and its outcome is written; the reason then says the task finished), so a listener still registered is
   * called then and let go: removing it with {@link offAbort} is only needed to stop it earlier. A synchronous call's
   * listeners (and those of `collectInput`, prompt and resource handlers) are let go uncalled once the handler
   * settled: the request's signal may outlive it (a transport may give every request its connection's signal).
   */
  onAbort(listener: (reason: unknown) => void): void;
  /** Removes a listener added with {@link onAbort} (once, if added several times); a no-op when it is not there. */
  offAbort(listener: (reason: unknown) => void): void;
}

/** Which client feature an input request needs. */
export type InputKind = 'elicitation' | 'sampling' | 'roots';

/** Context for any handler that may answer `input_required` (tools, prompts, resources). */
export interface HandlerContext extends RequestInfo, MrtrInfo {
  /** True when this request declared the capability for `kind` (form elicitation for `elicitation`). */
  canRequest(kind: InputKind): boolean;
  /**
   * Builds an `input_required` answer. The runtime signs `state` into `requestState` (bound to this tool/prompt
   * and principal) and refuses with `-32021` when a request needs an undeclared capability.
   */
  inputRequired(options: { inputRequests?: Record<string, InputRequest>; state?: unknown }): InputRequired;
  /** Sends `notifications/progress` when the request carried a progress token; a no-op otherwise and in tasks. */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends `notifications/message` only when the request set a log level and `level` passes it. */
  log(level: LogLevel, data: unknown, logger?: string): void;
}

/** Context of a tool call. Asking for input works the same in every mode; `mode` tells which one runs. */
export interface ToolContext extends HandlerContext {
  /** How this call runs: `task`, `grace` or `sync`; see {@link ToolMode}. */
  readonly mode: ToolMode;
  /**
   * The call's task id: set for a task-mode call from the start, also during the grace period (the id is
   * reserved before the task is created, and is the one it will have); undefined for a synchronous call.
   */
  readonly taskId: string | undefined;
  /** Sets the task's `statusMessage` (creating the task during the grace period); a no-op for a synchronous call. */
  setStatus(message: string): Promise<void>;
  /**
   * Asks the client for input and resolves with its answer, in any mode: in a task through `input_required` and
   * `tasks/update` (during the grace period this creates the task first); in a synchronous call by MRTR: an
   * unanswered question ends this run of the handler (the promise rejects; let it propagate), the call answers
   * `input_required`, and the client's retry runs the handler again with the answers replayed in order.
   * Rejects with `-32021` when the request did not declare the capability.
   */
  elicit(params: ElicitRequestParams): Promise<ElicitResult>;
  /** Asks the client's model (`sampling/createMessage`); works like {@link elicit}. */
  sample(params: CreateMessageRequestParams): Promise<CreateMessageResult>;
  /** Asks for the client's roots (`roots/list`); works like {@link elicit}. */
  listRoots(): Promise<ListRootsResult>;
}

const KIND_PROBE: Record<InputKind, { readonly method: string }> = {
  elicitation: { method: 'elicitation/create' },
  sampling: { method: 'sampling/createMessage' },
  roots: { method: 'roots/list' },
};

/** The request a handler context is built for. */
export interface RequestScope {
  readonly principal: string | undefined;
  readonly envelope: RequestEnvelope;
  /**
   * What the handler's `signal` is read from: the request's context, or a task call's {@link CallAbort}. Read only
   * when the handler reads `ctx.signal`: in Node 20 an `AbortSignal` costs about 800 bytes of heap once created,
   * which a task's tool that never looks at it should not pay while it waits.
   */
  readonly abort: AbortSource;
  readonly mrtr: MrtrInfo;
  readonly notify: (notification: TransportNotification) => void;
  /** False once request-scoped notifications must stop (after a `CreateTaskResult`). */
  readonly streaming: () => boolean;
}

/**
 * The context of a prompt or resource handler, and the base of a tool's. A class, not an object literal of
 * closures: a task's context lives as long as its tool runs, and with 100,000 tasks waiting a dozen closures and
 * their scopes per context were kilobytes per task. The methods are getters that hand out a function bound to this
 * context, so a handler may still destructure them (`const { log } = ctx`) and an unused one costs nothing.
 */
class RequestHandlerContext implements HandlerContext {
  readonly principal: string | undefined;
  readonly protocolVersion: string;
  // Not readonly: a task's context swaps them for shared copies once detached from its request.
  clientCapabilities: JsonObject;
  meta: JsonObject;
  readonly inputResponses: Readonly<Record<string, JsonObject>>;
  readonly requestState: unknown;
  /** The request's abort; replaced by one that also keeps `onAbort` listeners when first needed. */
  #abort: AbortSource;
  /**
   * The request, for the parts `progress` and `log` need (its notification stream, progress token and log level),
   * until `detach` drops it: not its envelope and MRTR info copied into fields, fewer words per waiting task.
   */
  #scope: RequestScope | undefined;

  constructor(scope: RequestScope, requestState: unknown) {
    const { envelope } = scope;
    this.principal = scope.principal;
    this.protocolVersion = envelope.protocolVersion;
    this.clientCapabilities = envelope.clientCapabilities;
    this.meta = envelope.meta;
    this.#abort = scope.abort;
    this.inputResponses = scope.mrtr.inputResponses;
    this.requestState = requestState;
    this.#scope = scope;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  get onAbort(): HandlerContext['onAbort'] {
    return (listener) => this.#abortListeners().onAbort(listener);
  }

  get offAbort(): HandlerContext['offAbort'] {
    return (listener) => this.#abortListeners().offAbort(listener);
  }

  #abortListeners(): CallAbort {
    const abort = callAbortOf(this.#abort);
    this.#abort = abort;
    return abort;
  }

  /** See {@link releaseHandlerContext}. */
  static release(ctx: RequestHandlerContext): void {
    // Only a context whose handler added a listener holds a CallAbort; most hold the request's context as it came.
    const abort = ctx.#abort;
    if (abort instanceof CallAbort) abort.release();
  }

  /**
   * Forgets the request's notification stream unless `keepNotifying` (from now on `progress` and `log` send
   * nothing), and keeps `_meta` and the client capabilities as the interner's shared copies.
   */
  detach(interner: JsonInterner, keepNotifying: boolean): void {
    if (!keepNotifying) this.#scope = undefined;
    const meta = interner.intern(this.meta);
    const capabilities = meta[META.clientCapabilities];
    // In this era the capabilities are part of `_meta`; a 2025-era session's are the session's, shared already.
    if (this.clientCapabilities === this.meta[META.clientCapabilities] && isJsonObject(capabilities)) {
      this.clientCapabilities = capabilities;
    }
    this.meta = meta;
  }

  /** Sends a request-scoped notification while the request still streams them. */
  #send(notification: TransportNotification): void {
    const scope = this.#scope;
    if (scope?.streaming() === true) scope.notify(notification);
  }

  get canRequest(): HandlerContext['canRequest'] {
    const caps = this.clientCapabilities;
    return (kind) => missingCapabilityFor(KIND_PROBE[kind], caps) === undefined;
  }

  get inputRequired(): HandlerContext['inputRequired'] {
    return (options) => new InputRequired(options);
  }

  get progress(): HandlerContext['progress'] {
    const token = this.#scope?.envelope.progressToken;
    return (progress, total, message) => {
      if (token === undefined) return;
      this.#send({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        },
      });
    };
  }

  get log(): HandlerContext['log'] {
    const minimum = this.#scope?.envelope.logLevel;
    return (level, data, logger) => {
      if (minimum === undefined || !passesLogLevel(level, minimum)) return;
      this.#send({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level, data, ...(logger === undefined ? {} : { logger }) },
      });
    };
  }
}

/** The context of a tool call; `channel` carries its questions and status (a task, or MRTR replay). */
class ToolCallContext extends RequestHandlerContext implements ToolContext {
  readonly #channel: InputChannel;

  constructor(scope: RequestScope, channel: InputChannel) {
    super(scope, ReplayInputChannel.handlerState(scope.mrtr.requestState));
    this.#channel = channel;
  }

  // Getters: the mode moves from grace to task when the task is created.
  get mode(): ToolMode {
    return this.#channel.mode;
  }

  get taskId(): string | undefined {
    return this.#channel.taskId;
  }

  get setStatus(): ToolContext['setStatus'] {
    const channel = this.#channel;
    return (message) => channel.setStatus(message);
  }

  // Each answer was validated against its method's result schema (inputAnswers.ts), so the casts hold.
  get elicit(): ToolContext['elicit'] {
    return async (params) => (await this.#ask({ method: 'elicitation/create', params })) as ElicitResult;
  }

  get sample(): ToolContext['sample'] {
    return async (params) => (await this.#ask({ method: 'sampling/createMessage', params })) as CreateMessageResult;
  }

  get listRoots(): ToolContext['listRoots'] {
    return async () => (await this.#ask({ method: 'roots/list', params: {} })) as ListRootsResult;
  }

  async #ask(request: InputRequest): Promise<InputResponse> {
    const need = missingCapabilityFor(request, this.clientCapabilities);
    if (need !== undefined) {
      throw missingCapability(need, `The request did not declare ${Object.keys(need)[0]}`);
    }
    return this.#channel.ask(request);
  }
}

/** Builds the context passed to prompt and resource handlers. */
export function createHandlerContext(source: RequestScope): HandlerContext {
  return new RequestHandlerContext(source, source.mrtr.requestState);
}

/**
 * Ends a context's hold on its request's signal once its handler settled (`CallAbort.release`): its `onAbort`
 * listeners are let go and never called. Every context built on a request's own signal (synchronous calls,
 * `collectInput`, prompt and resource handlers) is released by its caller; a task's context needs nothing.
 */
export function releaseHandlerContext(ctx: HandlerContext): void {
  // Every context is one of ours (made by the two functions below), so no `instanceof` check on it for every call.
  RequestHandlerContext.release(ctx as RequestHandlerContext);
}

/** Runs `run` with `ctx`, then releases the context ({@link releaseHandlerContext}) however `run` ended. */
export async function runInContext<C extends HandlerContext, R>(
  ctx: C,
  run: (ctx: C) => R | Promise<R>,
): Promise<Awaited<R>> {
  try {
    return await run(ctx);
  } finally {
    releaseHandlerContext(ctx);
  }
}

/** Builds the context passed to a tool handler; `channel` carries its questions (a task, or MRTR replay). */
export function createToolContext(source: RequestScope, channel: InputChannel): ToolContext {
  return new ToolCallContext(source, channel);
}

/**
 * Makes a task's tool context forget its request's notification stream once the `CreateTaskResult` is sent (it
 * could send nothing more, unless `keepNotifying`), and share its `_meta` with other tasks of equal `_meta` (a
 * deep-frozen copy from `interner`): both would otherwise live, per task, as long as the task waits.
 */
export function detachRequest(context: ToolContext, interner: JsonInterner, keepNotifying: boolean): void {
  if (context instanceof RequestHandlerContext) context.detach(interner, keepNotifying);
}

export type { InputChannel, MrtrInfo, ToolMode } from './inputChannel.js';
