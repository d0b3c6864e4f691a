import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  InputRequest,
  InputResponse,
  ListRootsResult,
  TransportNotification,
} from '@mcp-tasks/protocol';
import { missingCapabilityFor } from './capabilities.js';
import type { RequestEnvelope } from './envelope.js';
import { missingCapability } from './errors.js';
import type { JsonObject } from './jsonRpc.js';
import { type LogLevel, passesLogLevel } from './logLevels.js';
import { InputRequired } from './mrtr.js';
import { ReplayInputChannel } from './mrtrReplay.js';

/** What every handler learns about the request it serves. */
export interface RequestInfo {
  /** The authenticated principal, or undefined on unauthenticated transports. */
  readonly principal: string | undefined;
  readonly protocolVersion: string;
  /** This request's `clientCapabilities` (for a task: those of the request that created it). */
  readonly clientCapabilities: JsonObject;
  /** This request's whole `_meta`. */
  readonly meta: JsonObject;
  /**
   * Aborted when the client goes away (sync calls, and task-mode calls until their answer is decided, e.g. during
   * the immediate-result grace period), or when the task is cancelled, expires or the server closes. Long work
   * should watch it.
   */
  readonly signal: AbortSignal;
}

/** Which client feature an input request needs. */
export type InputKind = 'elicitation' | 'sampling' | 'roots';

/** MRTR state of a request: the answers of a retry and the handler's own state from the verified `requestState`. */
export interface MrtrInfo {
  /**
   * The retry's `inputResponses` (every value an object; answers to the keys the previous round asked for match
   * their request's result schema when the retry echoes its `requestState`); `{}` on the first round.
   */
  readonly inputResponses: Readonly<Record<string, JsonObject>>;
  /** The `state` given to {@link HandlerContext.inputRequired} in the previous round, after verification. */
  readonly requestState: unknown;
}

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

/**
 * How a tool call runs: `task` once its task exists; `grace` while a task-mode call is inside the
 * immediate-result grace period (its task id is already reserved; the first question or status update creates the
 * task); `sync` for a synchronous call.
 */
export type ToolMode = 'task' | 'grace' | 'sync';

/** Context of a tool call. Asking for input works the same in every mode; `mode` tells which one runs. */
export interface ToolContext extends HandlerContext {
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

/** Where a tool's questions and status go: the call's task, or MRTR replay for a synchronous call. */
export interface InputChannel {
  readonly mode: ToolMode;
  readonly taskId: string | undefined;
  /** Resolves with the answer, already validated against the result schema of `request.method`. */
  ask(request: InputRequest): Promise<InputResponse>;
  setStatus(message: string): Promise<void>;
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
  readonly signal: AbortSignal;
  readonly mrtr: MrtrInfo;
  readonly notify: (notification: TransportNotification) => void;
  /** False once request-scoped notifications must stop (after a `CreateTaskResult`). */
  readonly streaming: () => boolean;
}

const inputRequired = (options: ConstructorParameters<typeof InputRequired>[0]): InputRequired =>
  new InputRequired(options);

function canRequestIn(caps: JsonObject): HandlerContext['canRequest'] {
  return (kind) => missingCapabilityFor(KIND_PROBE[kind], caps) === undefined;
}

function progressSender(source: RequestScope): HandlerContext['progress'] {
  return (progress, total, message) => {
    const token = source.envelope.progressToken;
    if (token === undefined || !source.streaming()) return;
    source.notify({
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

function logSender(source: RequestScope): HandlerContext['log'] {
  return (level, data, logger) => {
    const minimum = source.envelope.logLevel;
    if (minimum === undefined || !passesLogLevel(level, minimum) || !source.streaming()) return;
    source.notify({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level, data, ...(logger === undefined ? {} : { logger }) },
    });
  };
}

/** Builds the context passed to prompt and resource handlers. */
export function createHandlerContext(source: RequestScope): HandlerContext {
  const { envelope } = source;
  return {
    principal: source.principal,
    protocolVersion: envelope.protocolVersion,
    clientCapabilities: envelope.clientCapabilities,
    meta: envelope.meta,
    // A getter: a transport may create the request's signal on first use, and most handlers never read it.
    get signal() {
      return source.signal;
    },
    inputResponses: source.mrtr.inputResponses,
    requestState: source.mrtr.requestState,
    canRequest: canRequestIn(envelope.clientCapabilities),
    inputRequired,
    progress: progressSender(source),
    log: logSender(source),
  };
}

/** Builds the context passed to a tool handler; `channel` carries its questions (a task, or MRTR replay). */
export function createToolContext(source: RequestScope, channel: InputChannel): ToolContext {
  const { envelope } = source;
  const caps = envelope.clientCapabilities;
  const ask = async (request: InputRequest): Promise<InputResponse> => {
    const need = missingCapabilityFor(request, caps);
    if (need !== undefined) {
      throw missingCapability(need, `The request did not declare ${Object.keys(need)[0]}`);
    }
    return channel.ask(request);
  };
  // The members of createHandlerContext written out, not spread from it: one object per call on the hot path,
  // and a spread would read `signal` at once.
  return {
    principal: source.principal,
    protocolVersion: envelope.protocolVersion,
    clientCapabilities: caps,
    meta: envelope.meta,
    get signal() {
      return source.signal;
    },
    inputResponses: source.mrtr.inputResponses,
    requestState: ReplayInputChannel.handlerState(source.mrtr.requestState),
    canRequest: canRequestIn(caps),
    inputRequired,
    progress: progressSender(source),
    log: logSender(source),
    // Getters: the mode moves from grace to task when the task is created.
    get mode() {
      return channel.mode;
    },
    get taskId() {
      return channel.taskId;
    },
    setStatus: (message) => channel.setStatus(message),
    // Each answer was validated against its method's result schema (inputAnswers.ts), so the casts hold.
    elicit: async (params) => (await ask({ method: 'elicitation/create', params })) as ElicitResult,
    sample: async (params) => (await ask({ method: 'sampling/createMessage', params })) as CreateMessageResult,
    listRoots: async () => (await ask({ method: 'roots/list', params: {} })) as ListRootsResult,
  };
}
