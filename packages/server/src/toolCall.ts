import type { CallToolResult, CreateTaskResult, InputRequiredResult, RequestContext } from '@mcp-tasks/protocol';
import { declaresTasks, TASKS_REQUIRED_CAPABILITIES } from './capabilities.js';
import type { RequestEnvelope } from './envelope.js';
import { invalidParams, missingCapability } from './errors.js';
import type { JsonObject } from './jsonRpc.js';
import { InputRequired, readMrtrParams, readRequestState, toInputRequiredResult } from './mrtr.js';
import { ReplayInputChannel } from './mrtrReplay.js';
import type { RequestStateSigner } from './requestState.js';
import {
  createHandlerContext,
  createToolContext,
  type InputChannel,
  type MrtrInfo,
  type RequestScope,
  releaseHandlerContext,
  runInContext,
} from './toolContext.js';
import { completeToolResult, exceptionMessage, invokeTool, toolErrorResult } from './toolInvocation.js';
import { type ArgumentsCheck, type RegisteredTool, readArguments, runsAgain, type ToolResult } from './toolRegistry.js';
import type { ToolSupervisor } from './toolSupervisor.js';

/** What `tools/call` needs from the server. */
export interface ToolCallDeps {
  readonly tools: ReadonlyMap<string, RegisteredTool>;
  readonly signer: RequestStateSigner;
  readonly supervisor: ToolSupervisor;
}

/** What `tools/call` answers: the tool's result, an MRTR round, or a task handle. */
export type ToolCallResult = CallToolResult | InputRequiredResult | CreateTaskResult;

/** One `tools/call` request. */
export interface ToolCallRequest {
  readonly params: JsonObject;
  readonly envelope: RequestEnvelope;
  readonly context: RequestContext;
  readonly owner: string;
  /**
   * Where a synchronous call's questions go instead of MRTR replay (a 2025-era session asks the client directly).
   * Task-mode calls ignore it.
   */
  readonly syncInput?: InputChannel;
}

/**
 * Serves `tools/call`, in this order: unknown tool (`-32602`); the task policy against this request's own
 * capabilities (`-32021` for a `required` tool; a legacy `task` param is ignored); argument validation (an
 * `isError` result the model can read); the MRTR phase (`requestState` verification, `collectInput`), so every
 * MRTR round ends before a task exists; then the handler, as a task ({@link startTask}) or synchronously
 * ({@link runSynchronously}).
 */
export async function callTool(deps: ToolCallDeps, request: ToolCallRequest): Promise<ToolCallResult> {
  const { params, envelope, context, owner } = request;
  const tool = findTool(deps.tools, params);

  const declared = declaresTasks(envelope.clientCapabilities);
  if (tool.taskSupport === 'required' && !declared) {
    throw missingCapability(TASKS_REQUIRED_CAPABILITIES, `Tool ${tool.definition.name} runs only as a task`);
  }
  // Awaited only when it is a promise: an await of a plain value still costs a turn, on every call.
  const checked = parseToolCallArguments(tool, params);
  const parsed = checked instanceof Promise ? await checked : checked;
  if (!parsed.ok) return completeToolResult(parsed.result);

  const mrtrParams = readMrtrParams(params);
  const binding: StateBinding = { method: 'tools/call', name: tool.definition.name, principal: owner };
  const mrtr: MrtrInfo = {
    inputResponses: mrtrParams.inputResponses,
    requestState:
      mrtrParams.requestState === undefined ? undefined : await readRequestState(deps.signer, binding, mrtrParams),
  };
  const scope: RequestScope = {
    principal: context.principal,
    envelope,
    abort: context,
    mrtr,
    notify: (notification) => context.notify(notification),
    streaming: always,
  };

  const collect = tool.definition.collectInput;
  if (collect !== undefined) {
    const marker = await runInContext(createHandlerContext(scope), (ctx) => collect(parsed.value as JsonObject, ctx));
    if (marker instanceof InputRequired) {
      return toInputRequiredResult(marker, envelope.clientCapabilities, deps.signer, binding);
    }
  }
  if (tool.taskSupport !== 'forbidden' && declared) return startTask(deps, request, tool, parsed.value, mrtr);
  return runSynchronously(deps, request, tool, parsed.value, scope, binding);
}

/** What a `requestState` is bound to: the method, the tool and the task owner. */
type StateBinding = { readonly method: string; readonly name: string; readonly principal: string };

const always = () => true;

/** Runs the tool as a task: the supervisor answers with the task handle (or the immediate result). */
async function startTask(
  deps: ToolCallDeps,
  request: ToolCallRequest,
  tool: RegisteredTool,
  args: unknown,
  mrtr: MrtrInfo,
): Promise<ToolCallResult> {
  const { envelope, context, owner } = request;
  const stream = requestStream(context);
  const { principal } = context;
  try {
    return await deps.supervisor.start({
      owner,
      tool,
      args,
      requestMeta: taskRequestMeta(tool, args, envelope, principal),
      callerMeta: envelope.meta,
      signal: context.signal,
      makeContext: (channel, abort, streaming) =>
        createToolContext({ principal, envelope, abort, mrtr, notify: stream.notify, streaming }, channel),
    });
  } finally {
    stream.end();
  }
}

/** Runs the tool within this request, its questions answered by MRTR replay (or the 2025-era session). */
async function runSynchronously(
  deps: ToolCallDeps,
  request: ToolCallRequest,
  tool: RegisteredTool,
  args: unknown,
  scope: RequestScope,
  binding: StateBinding,
): Promise<ToolCallResult> {
  const capabilities = request.envelope.clientCapabilities;
  const replay = new ReplayInputChannel(scope.mrtr);
  const toolContext = createToolContext(scope, request.syncInput ?? replay);
  // Not `runInContext`: `invokeTool` never rejects, and this path, every synchronous call's, takes no closure.
  const outcome = await invokeTool(tool, args, toolContext);
  releaseHandlerContext(toolContext);
  // A question the client has not answered yet ends the run, however the handler ended it.
  const pending = replay.pendingInput();
  if (pending !== undefined) return toInputRequiredResult(pending, capabilities, deps.signer, binding);
  switch (outcome.kind) {
    case 'result':
      return completeToolResult(outcome.result);
    case 'input':
      return toInputRequiredResult(outcome.marker, capabilities, deps.signer, binding);
    case 'protocolError':
      throw outcome.error;
    case 'exception':
      return completeToolResult(toolErrorResult(exceptionMessage(outcome.error)));
  }
}

/**
 * The notifications of a task-mode call's request, ended once its answer is decided (none are sent after it): the
 * tool's context outlives the request, and must not keep the transport's request (its signal, its stream) alive.
 * Built outside `callTool`, whose closures share one scope that holds the request.
 */
function requestStream(context: RequestContext): { notify: RequestScope['notify']; end: () => void } {
  let target: RequestContext | undefined = context;
  return {
    notify: (notification) => target?.notify(notification),
    end: () => {
      target = undefined;
    },
  };
}

/** The tool `params.name` names; `-32602` when the name is missing or unknown. */
export function findTool(tools: ReadonlyMap<string, RegisteredTool>, params: JsonObject): RegisteredTool {
  if (typeof params.name !== 'string') throw invalidParams('Invalid params: name must be a string');
  const tool = tools.get(params.name);
  if (tool === undefined) throw invalidParams(`Invalid params: unknown tool ${params.name}`);
  return tool;
}

/**
 * Validates `params.arguments` (absent means `{}`) against the tool's input schema: the parsed value, or the
 * `isError` result that tells the model what was wrong.
 */
export function parseToolCallArguments(
  tool: RegisteredTool,
  params: JsonObject,
): ParsedArguments | Promise<ParsedArguments> {
  const args = readArguments(params);
  if (args === undefined) {
    return {
      ok: false,
      result: toolErrorResult(`Invalid arguments for tool ${tool.definition.name}: expected an object`),
    };
  }
  const checked = tool.parseArguments(args);
  return checked instanceof Promise ? checked.then(toParsedArguments) : toParsedArguments(checked);
}

/** What {@link parseToolCallArguments} gives: synchronously unless the tool's schema validates asynchronously. */
export type ParsedArguments =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly result: ToolResult };

function toParsedArguments(checked: ArgumentsCheck): ParsedArguments {
  return checked.ok ? checked : { ok: false, result: toolErrorResult(checked.message) };
}

/**
 * What a task stores about the call that created it: the tool's name, and for a `resumable` or `durable` tool what another
 * instance needs to run it again (arguments, the request's version, capabilities and principal).
 */
export function taskRequestMeta(
  tool: RegisteredTool,
  args: unknown,
  envelope: RequestEnvelope,
  principal: string | undefined,
): JsonObject {
  if (!runsAgain(tool)) return sharedRequestMeta(tool);
  const meta: Record<string, unknown> = {
    method: 'tools/call',
    name: tool.definition.name,
    arguments: args,
    protocolVersion: envelope.protocolVersion,
    clientCapabilities: envelope.clientCapabilities,
  };
  if (principal !== undefined) meta.principal = principal;
  return meta;
}

const requestMetaByTool = new WeakMap<RegisteredTool, JsonObject>();

/** One frozen `requestMeta` per non-resumable tool, stored by reference in each of its tasks (not a copy each). */
function sharedRequestMeta(tool: RegisteredTool): JsonObject {
  let meta = requestMetaByTool.get(tool);
  if (meta === undefined) {
    meta = Object.freeze({ method: 'tools/call', name: tool.definition.name });
    requestMetaByTool.set(tool, meta);
  }
  return meta;
}
