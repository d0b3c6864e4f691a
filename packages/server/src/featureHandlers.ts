import { withFields } from '@mcp-tasks/protocol';
import { invalidParams } from './errors.js';
import { isJsonObject, type JsonObject } from './jsonRpc.js';
import { InputRequired, readMrtrParams, readRequestState, toInputRequiredResult } from './mrtr.js';
import { type Completer, type PromptResult, type RegisteredPrompt, readPromptArguments } from './promptRegistry.js';
import type { RequestStateSigner } from './requestState.js';
import {
  type ReadResult,
  type RegisteredTemplate,
  type ResourceDefinition,
  resourceNotFound,
} from './resourceRegistry.js';
import type { HandlerContext, RequestScope } from './toolContext.js';
import { createHandlerContext, runInContext } from './toolContext.js';

/** What prompt, resource and completion requests need from the server. */
export interface FeatureDeps {
  readonly prompts: ReadonlyMap<string, RegisteredPrompt>;
  readonly resources: ReadonlyMap<string, ResourceDefinition>;
  readonly templates: readonly RegisteredTemplate[];
  readonly signer: RequestStateSigner;
}

/** One request, with what MRTR needs to build its context. */
export interface FeatureRequest {
  readonly params: JsonObject;
  readonly owner: string;
  /** Builds the handler context source once the MRTR fields are known. */
  readonly source: (mrtr: RequestScope['mrtr']) => RequestScope;
}

async function withMrtr<T extends object>(
  deps: FeatureDeps,
  request: FeatureRequest,
  binding: { method: string; name: string },
  run: (ctx: HandlerContext) => Promise<T | InputRequired>,
): Promise<{ readonly done: T } | { readonly input: JsonObject }> {
  const fullBinding = { ...binding, principal: request.owner };
  const mrtrParams = readMrtrParams(request.params);
  const mrtr = {
    inputResponses: mrtrParams.inputResponses,
    requestState: await readRequestState(deps.signer, fullBinding, mrtrParams),
  };
  const source = request.source(mrtr);
  const value = await runInContext(createHandlerContext(source), run);
  if (value instanceof InputRequired) {
    return { input: await toInputRequiredResult(value, source.envelope.clientCapabilities, deps.signer, fullBinding) };
  }
  return { done: value };
}

/** `prompts/get`: unknown prompt or bad arguments are `-32602`; the handler may answer `input_required`. */
export async function getPrompt(deps: FeatureDeps, request: FeatureRequest): Promise<JsonObject> {
  const { name } = request.params;
  if (typeof name !== 'string') throw invalidParams('Invalid params: name must be a string');
  const prompt = deps.prompts.get(name);
  if (prompt === undefined) throw invalidParams(`Invalid params: unknown prompt ${name}`);
  const args = readPromptArguments(prompt, request.params);
  const result = await withMrtr<PromptResult>(deps, request, { method: 'prompts/get', name }, async (ctx) =>
    prompt.definition.handler(args, ctx),
  );
  return 'input' in result ? result.input : withFields(result.done, { resultType: 'complete' });
}

/** `resources/read`: fixed resources first, then templates in registration order; unknown is `-32602` + `data.uri`. */
export async function readResource(deps: FeatureDeps, request: FeatureRequest): Promise<JsonObject> {
  const { uri } = request.params;
  if (typeof uri !== 'string') throw invalidParams('Invalid params: uri must be a string');
  const result = await withMrtr<ReadResult>(deps, request, { method: 'resources/read', name: uri }, async (ctx) => {
    const fixed = deps.resources.get(uri);
    if (fixed !== undefined) return fixed.read(uri, ctx);
    for (const template of deps.templates) {
      const variables = template.match(uri);
      if (variables === undefined) continue;
      const read: ReadResult | InputRequired | undefined = await template.definition.read(uri, variables, ctx);
      if (read !== undefined) return read;
    }
    throw resourceNotFound(uri);
  });
  if ('input' in result) return result.input;
  // An empty `contents` would read as "exists but empty"; SEP-2164 wants not-found instead.
  if (result.done.contents.length === 0) throw resourceNotFound(uri);
  return withFields(result.done, { resultType: 'complete' });
}

const MAX_COMPLETIONS = 100;

/** `completion/complete` for `ref/prompt` arguments and `ref/resource` template variables; unknown refs are `-32602`. */
export async function complete(deps: FeatureDeps, params: JsonObject): Promise<JsonObject> {
  const { ref, argument, context } = params;
  if (!isJsonObject(ref) || !isJsonObject(argument)) {
    throw invalidParams('Invalid params: ref and argument are required objects');
  }
  if (typeof argument.name !== 'string' || typeof argument.value !== 'string') {
    throw invalidParams('Invalid params: argument.name and argument.value must be strings');
  }
  const known = isJsonObject(context) && isJsonObject(context.arguments) ? context.arguments : {};
  const resolved = Object.fromEntries(Object.entries(known).filter(([, v]) => typeof v === 'string')) as Record<
    string,
    string
  >;
  let completer: Completer | undefined;
  if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
    const prompt = deps.prompts.get(ref.name);
    if (prompt === undefined) throw invalidParams(`Invalid params: unknown prompt ${ref.name}`);
    completer = prompt.definition.arguments?.find((arg) => arg.name === argument.name)?.complete;
  } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
    const template = deps.templates.find((t) => t.definition.uriTemplate === ref.uri);
    if (template === undefined) throw invalidParams(`Invalid params: unknown resource template ${ref.uri}`);
    completer = template.definition.complete?.[argument.name];
  } else {
    throw invalidParams('Invalid params: ref must be a ref/prompt with a name or a ref/resource with a uri');
  }
  const values = completer === undefined ? [] : await completer(argument.value, { arguments: resolved });
  return {
    resultType: 'complete',
    completion: {
      values: values.slice(0, MAX_COMPLETIONS),
      total: values.length,
      hasMore: values.length > MAX_COMPLETIONS,
    },
  };
}
