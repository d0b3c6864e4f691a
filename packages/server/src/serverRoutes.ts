import { type RequestContext, TASKS_EXTENSION_ID, withFields } from '@mcp-tasks/protocol';
import { declaresTasks, TASKS_REQUIRED_CAPABILITIES } from './capabilities.js';
import type { RequestEnvelope } from './envelope.js';
import { invalidParams, missingCapability } from './errors.js';
import { complete, type FeatureDeps, type FeatureRequest, getPrompt, readResource } from './featureHandlers.js';
import type { JsonObject } from './jsonRpc.js';
import type { ListenHub } from './listenHub.js';
import { paginate } from './pagination.js';
import type { RegisteredPrompt } from './promptRegistry.js';
import type { RequestStateSigner } from './requestState.js';
import { type RegisteredTemplate, type ResourceDefinition, resourceWire } from './resourceRegistry.js';
import type { TaskRuntime } from './taskRuntime.js';
import { callTool } from './toolCall.js';
import type { InputChannel } from './toolContext.js';
import type { RegisteredTool } from './toolRegistry.js';

/** Cache hints (`ttlMs`, `cacheScope`) of a cacheable result (SEP-2549). */
export interface CacheHint {
  /** How long the result stays fresh from its receipt, in ms (0: stale at once). */
  readonly ttlMs: number;
  /** `public`: any client or shared cache may serve it to any user; `private`: only the requesting user's client. */
  readonly cacheScope: 'public' | 'private';
}

/** Methods whose results carry cache hints. */
export type CacheableMethod =
  | 'server/discover'
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read';

/** One request as a route sees it. */
export interface RouteRequest {
  readonly id: string | number;
  readonly params: JsonObject;
  readonly envelope: RequestEnvelope;
  readonly context: RequestContext;
  /** The task owner key of the request's principal. */
  readonly owner: string;
  /** A 2025-era session's way to ask the client during a synchronous tool call. */
  readonly syncInput?: InputChannel;
}

/** Serves one method. May throw synchronously as well as reject: callers await it inside their `try`. */
export type Route = (request: RouteRequest) => JsonObject | Promise<JsonObject>;

type TaskMethod = 'tasks/get' | 'tasks/update' | 'tasks/cancel';

/** What the method routes need from the server. */
export interface RouteDeps {
  readonly tools: ReadonlyMap<string, RegisteredTool>;
  readonly prompts: ReadonlyMap<string, RegisteredPrompt>;
  readonly resources: ReadonlyMap<string, ResourceDefinition>;
  readonly templates: readonly RegisteredTemplate[];
  readonly signer: RequestStateSigner;
  readonly tasks: TaskRuntime;
  readonly hub: ListenHub;
  /** The frozen `_meta` stamped on results, passed to `tasks/get` so its result needs no copy. */
  readonly serverMeta: JsonObject;
  readonly supportedVersions: readonly string[];
  readonly instructions: string | undefined;
  readonly pageSize: number;
  readonly cacheHints: Partial<Record<CacheableMethod, CacheHint>> | undefined;
}

/** The cache hint of a cacheable method's result: the configured one, or none (`ttlMs` 0). */
function cacheHint(deps: RouteDeps, method: CacheableMethod): CacheHint {
  return deps.cacheHints?.[method] ?? { ttlMs: 0, cacheScope: method === 'server/discover' ? 'public' : 'private' };
}

/** A prompt or resource request as the feature handlers take it. */
function featureRequest({ params, owner, envelope, context }: RouteRequest): FeatureRequest {
  return {
    params,
    owner,
    source: (mrtr) => ({
      principal: context.principal,
      envelope,
      abort: context,
      mrtr,
      notify: (notification) => context.notify(notification),
      streaming: () => true,
    }),
  };
}

/** A list route (`tools/list` and the like): one page of `items()` under `key`, with the method's cache hint. */
function listRoute(deps: RouteDeps, method: CacheableMethod, key: string, items: () => readonly unknown[]): Route {
  return ({ params }) => {
    const page = paginate(items(), params.cursor, deps.pageSize);
    return {
      resultType: 'complete',
      [key]: page.items,
      ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
      ...cacheHint(deps, method),
    };
  };
}

/** The method router of the shared (2026-07-28) routes: one entry per method, built once per server. */
export function buildRoutes(deps: RouteDeps): ReadonlyMap<string, Route> {
  const cache = (method: CacheableMethod): CacheHint => cacheHint(deps, method);
  const features: FeatureDeps = {
    prompts: deps.prompts,
    resources: deps.resources,
    templates: deps.templates,
    signer: deps.signer,
  };
  const feature = featureRequest;
  const list = (method: CacheableMethod, key: string, items: () => readonly unknown[]): Route =>
    listRoute(deps, method, key, items);
  const tasks =
    (method: TaskMethod): Route =>
    (request) =>
      taskMethod(deps, method, request);
  const toolCallDeps = { tools: deps.tools, signer: deps.signer, supervisor: deps.tasks.supervisor };
  return new Map<string, Route>([
    ['server/discover', () => discover(deps, cache('server/discover'))],
    ['tools/list', list('tools/list', 'tools', () => [...deps.tools.values()].map((tool) => tool.wire))],
    // A route request is a tool call request: handed on as it is, with no copy per call.
    ['tools/call', (request) => callTool(toolCallDeps, request)],
    ['prompts/list', list('prompts/list', 'prompts', () => [...deps.prompts.values()].map((p) => p.wire))],
    ['prompts/get', (request) => getPrompt(features, feature(request))],
    ['resources/list', list('resources/list', 'resources', () => [...deps.resources.values()].map(resourceWire))],
    [
      'resources/templates/list',
      list('resources/templates/list', 'resourceTemplates', () => deps.templates.map((t) => t.wire)),
    ],
    [
      'resources/read',
      async (request) => {
        const result = await readResource(features, feature(request));
        return result.resultType === 'complete' ? withFields(result, cache('resources/read')) : result;
      },
    ],
    ['completion/complete', ({ params }) => complete(features, params)],
    [
      'subscriptions/listen',
      ({ id, params, envelope, context, owner }) =>
        deps.hub.listen({
          id,
          params,
          clientCapabilities: envelope.clientCapabilities,
          owner,
          notify: (notification) => context.notify(notification),
          signal: context.signal,
        }),
    ],
    ['tasks/get', tasks('tasks/get')],
    ['tasks/update', tasks('tasks/update')],
    ['tasks/cancel', tasks('tasks/cancel')],
  ]);
}

function discover(deps: RouteDeps, hint: CacheHint): JsonObject {
  return {
    resultType: 'complete',
    supportedVersions: [...deps.supportedVersions],
    capabilities: {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      completions: {},
      logging: {},
      // Declared only as an extension, never as a `tasks` key.
      extensions: { [TASKS_EXTENSION_ID]: {} },
    },
    ...(deps.instructions === undefined ? {} : { instructions: deps.instructions }),
    ...hint,
  };
}

/**
 * `tasks/*`: the capability gate comes before any lookup, then `taskId` is checked (both throw synchronously). Not
 * `async`: it hands on the method's promise (an async function returning one costs two more turns).
 */
function taskMethod(
  deps: RouteDeps,
  method: TaskMethod,
  { params, envelope, owner }: RouteRequest,
): Promise<JsonObject> {
  if (!declaresTasks(envelope.clientCapabilities)) {
    throw missingCapability(TASKS_REQUIRED_CAPABILITIES, `${method} needs the Tasks extension in clientCapabilities`);
  }
  const { taskId } = params;
  if (typeof taskId !== 'string') throw invalidParams('Invalid params: taskId must be a string');
  const { methods } = deps.tasks;
  if (method === 'tasks/get') return methods.get(owner, taskId, deps.serverMeta);
  if (method === 'tasks/update') return methods.update(owner, taskId, params.inputResponses);
  return methods.cancel(owner, taskId);
}
