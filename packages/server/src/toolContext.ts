import {
  type CreateMessageResult,
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
import type { HandlerContext, InputKind, ToolContext } from './handlerContext.js';
import type { InputChannel, MrtrInfo, ToolMode } from './inputChannel.js';
import type { JsonInterner } from './jsonInterner.js';
import { isJsonObject, type JsonObject } from './jsonRpc.js';
import { passesLogLevel } from './logLevels.js';
import { InputRequired } from './mrtr.js';
import { ReplayInputChannel } from './mrtrReplay.js';

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

  get attempt(): number {
    return this.#channel.attempt;
  }

  get setStatus(): ToolContext['setStatus'] {
    const channel = this.#channel;
    return (message) => channel.setStatus(message);
  }

  get step(): ToolContext['step'] {
    return (name, run) => this.#channel.step(name, run, this.signal);
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

export type { HandlerContext, InputKind, RequestInfo, ToolContext } from './handlerContext.js';
export type { InputChannel, MrtrInfo, ToolMode } from './inputChannel.js';
