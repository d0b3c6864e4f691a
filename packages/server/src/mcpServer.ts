import {
  ErrorCode,
  jsonRpcError,
  jsonRpcResult,
  META,
  messageEra,
  type ParamHeader,
  ProtocolError,
  type RequestContext,
  type ServerEndpoint,
  SUPPORTED_PROTOCOL_VERSIONS,
  type TransportResponse,
} from '@mcp-tasks/protocol';
import type { TaskStore } from '@mcp-tasks/task-store';
import { readEnvelope } from './envelope.js';
import { createLegacyTaskRoutes, LegacyEra, toLegacyError } from './era-2025/index.js';
import { methodNotFound, reportUnlessCancelled, toWireError } from './errors.js';
import { resolveExecutionOptions } from './executionOptions.js';
import { refuseInitialize } from './initializeRefusal.js';
import { type JsonObject, readInboundMessage } from './jsonRpc.js';
import type { SchemaInput } from './jsonSchema.js';
import { ListenHub, type ListKind } from './listenHub.js';
import type { McpServerOptions } from './mcpServerOptions.js';
import { type PromptDefinition, type RegisteredPrompt, registerPrompt } from './promptRegistry.js';
import { RequestStateSigner } from './requestState.js';
import {
  type RegisteredTemplate,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
  registerTemplate,
} from './resourceRegistry.js';
import { defaultTaskStore, resolveTaskOptions, SERVER_DEFAULTS } from './serverDefaults.js';
import { stampServerInfo } from './serverInfoStamp.js';
import { buildRoutes, type Route, type RouteRequest } from './serverRoutes.js';
import { legacyOwnerOf, ownerOf } from './taskOwners.js';
import { TaskRuntime } from './taskRuntime.js';
import { type RegisteredTool, registerTool, type ToolDefinition } from './toolRegistry.js';

export type { McpServerOptions } from './mcpServerOptions.js';
export type { CacheableMethod, CacheHint } from './serverRoutes.js';

/** What {@link McpServer.toolParamHeaders} answers for a tool without `x-mcp-header` annotations. */
const NO_PARAM_HEADERS: readonly ParamHeader[] = Object.freeze([]);
/** What {@link McpServer.toolRequiredScopes} answers for a tool without required scopes. */
const NO_SCOPES: readonly string[] = Object.freeze([]);

/**
 * An MCP server: stateless 2026-07-28 with the complete Tasks extension, plus the stateful 2025-era protocol on
 * transports that carry sessions. It is a `ServerEndpoint`: pass the server itself to an HTTP transport
 * (`listen(server)`, `createFetchHandler(server)`), which also needs {@link McpServer.toolParamHeaders}; message
 * transports (stdio, WebSocket) take {@link McpServer.handle}. A 2026 request is judged on its own `_meta`; a
 * 2025-era message on `context.session` is served from what the session's `initialize` fixed. Register tools,
 * prompts and resources before or while serving (changes notify listen streams and initialized sessions).
 */
export class McpServer implements ServerEndpoint {
  /** The `_meta` of a result that carries none of its own: built once, frozen, shared by every such result. */
  readonly #serverMeta: JsonObject;
  readonly #store: TaskStore;
  readonly #ownsStore: boolean;
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #prompts = new Map<string, RegisteredPrompt>();
  readonly #resources = new Map<string, ResourceDefinition>();
  readonly #templates: RegisteredTemplate[] = [];
  readonly #signer: RequestStateSigner;
  readonly #tasks: TaskRuntime;
  readonly #hub: ListenHub;
  readonly #legacy: LegacyEra;
  readonly #report: (error: unknown) => void;
  #closed = false;
  #closing: Promise<void> | undefined;
  /** `method` → handler, built once. */
  readonly #routes: ReadonlyMap<string, Route>;

  /**
   * Creates the server and registers nothing: add tools, prompts and resources, then hand {@link McpServer.handle} to a
   * transport. The default task store is created here.
   */
  constructor(options: McpServerOptions) {
    // Frozen: `tasks/get` results keep their JSON text, which must not follow later changes to the caller's object.
    this.#serverMeta = Object.freeze({ [META.serverInfo]: Object.freeze({ ...options.serverInfo }) });
    this.#ownsStore = options.closeTaskStore ?? options.taskStore === undefined;
    const tasks = resolveTaskOptions(options);
    const pageSize = options.pageSize ?? SERVER_DEFAULTS.pageSize;
    this.#store = options.taskStore ?? defaultTaskStore(tasks);
    this.#report = options.onError ?? ((error) => console.error('McpServer:', error));
    this.#signer = new RequestStateSigner(options.requestStateSecret, options.requestStateTtlMs);
    const taskShape = {
      ttlMs: tasks.ttlMs,
      pollIntervalMs: tasks.pollIntervalMs,
      maxInputRequestsPerTask: tasks.maxInputRequestsPerTask,
    };
    this.#tasks = new TaskRuntime({
      store: this.#store,
      ...tasks,
      tools: this.#tools,
      execution: resolveExecutionOptions(options.execution, this.#report),
      telemetry: options.telemetry,
      report: this.#report,
    });
    this.#hub = new ListenHub(this.#tasks.ops, tasks.maxTaskIdsPerListen);
    this.#routes = buildRoutes({
      tools: this.#tools,
      prompts: this.#prompts,
      resources: this.#resources,
      templates: this.#templates,
      signer: this.#signer,
      tasks: this.#tasks,
      hub: this.#hub,
      serverMeta: this.#serverMeta,
      supportedVersions: SUPPORTED_PROTOCOL_VERSIONS,
      instructions: options.instructions,
      pageSize,
      cacheHints: options.cacheHints,
    });
    this.#legacy = new LegacyEra({
      identity: { serverInfo: options.serverInfo, instructions: options.instructions },
      maxSessions: options.maxLegacySessions ?? SERVER_DEFAULTS.maxLegacySessions,
      tools: this.#tools,
      dispatch: (method, request) => this.#dispatch(method, request),
      owner: legacyOwnerOf,
      taskRoutes: createLegacyTaskRoutes({
        runtime: this.#tasks,
        tools: this.#tools,
        ...taskShape,
        listPageSize: pageSize,
      }),
    });
    this.handle = this.handle.bind(this);
    this.toolParamHeaders = this.toolParamHeaders.bind(this);
    this.toolRequiredScopes = this.toolRequiredScopes.bind(this);
  }

  /**
   * The OAuth scopes a call of the tool named `toolName` needs (its `requiredScopes`); empty for a tool without
   * them or an unknown tool. The HTTP transport refuses a call whose token lacks one with 403. Bound.
   */
  toolRequiredScopes(toolName: string): readonly string[] {
    return this.#tools.get(toolName)?.definition.requiredScopes ?? NO_SCOPES;
  }

  /**
   * The arguments of the tool named `toolName` that its input schema annotates with `x-mcp-header`: Streamable HTTP
   * carries each in an `Mcp-Param-{name}` header that the HTTP transport checks against the call's arguments before
   * it hands the call to {@link McpServer.handle}. Empty for a tool without annotations or an unknown tool. Bound.
   */
  toolParamHeaders(toolName: string): readonly ParamHeader[] {
    return this.#tools.get(toolName)?.headerParams ?? NO_PARAM_HEADERS;
  }

  /**
   * Registers a tool (listed in registration order). Throws on a duplicate or invalid definition, and for a `durable`
   * tool when the task store does not implement `DurableTaskStore`. The first durable tool starts this instance's
   * executor (unless `execution.role` is `front`).
   */
  tool<S extends SchemaInput>(definition: ToolDefinition<S>): this {
    if (this.#tools.has(definition.name)) throw new Error(`Tool ${definition.name} is already registered`);
    const tool = registerTool(definition as unknown as ToolDefinition);
    if (tool.definition.durable === true) this.#tasks.enableDurable(tool);
    this.#tools.set(definition.name, tool);
    this.#listChanged('tools');
    return this;
  }

  /** Removes a tool; true when it existed. Open listen streams hear `notifications/tools/list_changed`. */
  removeTool(name: string): boolean {
    const removed = this.#tools.delete(name);
    if (removed) this.#listChanged('tools');
    return removed;
  }

  /** Registers a prompt. Throws on a duplicate. */
  prompt(definition: PromptDefinition): this {
    if (this.#prompts.has(definition.name)) throw new Error(`Prompt ${definition.name} is already registered`);
    this.#prompts.set(definition.name, registerPrompt(definition));
    this.#listChanged('prompts');
    return this;
  }

  /** Removes a prompt; true when it existed. */
  removePrompt(name: string): boolean {
    const removed = this.#prompts.delete(name);
    if (removed) this.#listChanged('prompts');
    return removed;
  }

  /** Registers a fixed resource. Throws on a duplicate URI. */
  resource(definition: ResourceDefinition): this {
    if (this.#resources.has(definition.uri)) throw new Error(`Resource ${definition.uri} is already registered`);
    this.#resources.set(definition.uri, definition);
    this.#listChanged('resources');
    return this;
  }

  /** Registers a resource template. */
  resourceTemplate(definition: ResourceTemplateDefinition): this {
    this.#templates.push(registerTemplate(definition));
    this.#listChanged('resources');
    return this;
  }

  /**
   * Tells listen streams and 2025-era sessions subscribed to `uri` that the resource changed
   * (`notifications/resources/updated`). Any URI may be subscribed to, listed or not.
   */
  resourceUpdated(uri: string): void {
    this.#hub.resourceUpdated(uri);
    this.#legacy.sessions.resourceUpdated(uri);
  }

  /** Announces a list change the registry cannot see (e.g. a handler's output changed). */
  listChanged(kind: 'tools' | 'prompts' | 'resources'): void {
    this.#listChanged(kind);
  }

  /** Tells listen streams and initialized 2025-era sessions that a list changed. */
  #listChanged(kind: ListKind): void {
    this.#hub.listChanged(kind);
    this.#legacy.sessions.listChanged(kind);
  }

  /**
   * The `MessageHandler`: resolves with the response for a request, undefined for notifications and responses;
   * never rejects. `subscriptions/listen` stays pending until `context.signal` aborts or {@link close}. A message
   * without the 2026 `_meta` that arrives on `context.session` is served by the session's 2025-era state: `initialize`
   * starts it, `ping` works before it, anything else needs it (and otherwise takes the 2026 path). Bound to the instance, so it can be passed around as a plain function. The response is read-only: a result's
   * `_meta` may be an object shared (frozen) across responses.
   */
  async handle(message: unknown, context: RequestContext): Promise<TransportResponse | undefined> {
    const inbound = readInboundMessage(message);
    if (inbound.kind === 'invalid') {
      return jsonRpcError(inbound.id, { code: ErrorCode.InvalidRequest, message: inbound.message });
    }
    // A JSON-RPC response answers a request the transport sent for us (2025-era sessions); it routes it by id.
    if (inbound.kind === 'response') return undefined;
    const { session } = context;
    if (messageEra(message) === 'legacy' && this.#legacy.claims(inbound.kind, inbound.method, session)) {
      if (inbound.kind === 'notification') {
        if (session !== undefined) this.#legacy.notification(inbound.method, session);
        return undefined;
      }
      try {
        if (this.#closed) throw new ProtocolError(ErrorCode.InternalError, 'Server is closed');
        return jsonRpcResult(
          inbound.id,
          await this.#legacy.request(inbound.id, inbound.method, inbound.params, context),
        );
      } catch (error) {
        return jsonRpcError(
          inbound.id,
          toWireError(toLegacyError(error), reportUnlessCancelled(context, this.#report)),
        );
      }
    }
    // Notifications need no answer; `notifications/cancelled` is the transport's job (it aborts `signal`).
    if (inbound.kind !== 'request') return undefined;
    try {
      if (this.#closed) throw new ProtocolError(ErrorCode.InternalError, 'Server is closed');
      if (inbound.method === 'initialize') throw refuseInitialize(inbound.params, SUPPORTED_PROTOCOL_VERSIONS);
      const envelope = readEnvelope(inbound.params, SUPPORTED_PROTOCOL_VERSIONS);
      const owner = ownerOf(context);
      const { id, method, params } = inbound;
      const result = await this.#dispatch(method, { id, params, envelope, context, owner });
      return jsonRpcResult(inbound.id, stampServerInfo(result, this.#serverMeta));
    } catch (error) {
      return jsonRpcError(inbound.id, toWireError(error, reportUnlessCancelled(context, this.#report)));
    }
  }

  /**
   * Shuts down, and always ends: ends listen streams gracefully, aborts running tools (their signal's reason is a
   * `TaskAbortError` of kind `shutdown`) and waits at most `graceMs` for them. Tasks whose tool is still running
   * then are failed with `-32603` "Server shut down"; when the store outlives this server (`closeTaskStore` false),
   * a `resumable` tool's task is left to the lease sweep of another instance instead. Finally closes the task store
   * (see `closeTaskStore`), also when something above failed. Idempotent.
   */
  async close(options: { readonly graceMs?: number } = {}): Promise<void> {
    if (this.#closing !== undefined) return this.#closing;
    this.#closed = true;
    this.#closing = (async () => {
      try {
        this.#hub.close();
        this.#legacy.sessions.clear();
        await this.#tasks.close(options.graceMs ?? 5_000, !this.#ownsStore);
      } finally {
        if (this.#ownsStore) await this.#store.close();
      }
    })();
    return this.#closing;
  }

  /**
   * The route's answer, or its synchronous throw. Not `async`: an async function returning the route's promise costs
   * two more microtask turns on every request; callers await it inside their `try`.
   */
  #dispatch(method: string, request: RouteRequest): JsonObject | Promise<JsonObject> {
    const route = this.#routes.get(method);
    if (route === undefined) throw methodNotFound(method);
    return route(request);
  }
}
