/**
 * `McpClient`: the runtime-neutral MCP 2026-07-28 client with the Tasks extension. It talks to a server only
 * through a `ClientTransport`. This file composes the client: the 2026-07-28 core (`clientRequests`, `toolCalls`)
 * and the 2025 era (`era-2025/`), chosen once per client by `eraConnection`.
 */
import {
  type CallToolResult,
  type ClientCapabilities,
  type ClientTransport,
  type CompleteRequestParams,
  type CompleteResult,
  CompleteResultSchema,
  type DetailedTask,
  type DiscoverResult,
  DiscoverResultSchema,
  type GetPromptResult,
  GetPromptResultSchema,
  GetTaskResultSchema,
  type InputResponses,
  type ListPromptsResult,
  ListPromptsResultSchema,
  type ListResourcesResult,
  ListResourcesResultSchema,
  type ListResourceTemplatesResult,
  ListResourceTemplatesResultSchema,
  type ListToolsResult,
  ListToolsResultSchema,
  type ReadResourceResult,
  ReadResourceResultSchema,
  type Tool,
  type TransportClosed,
  type TransportNotification,
} from '@mcp-tasks/protocol';
import { ClientRequests } from './clientRequests.js';
import { resolveClientSettings } from './clientSettings.js';
import { createLegacyParts } from './era-2025/index.js';
import { EraConnection, type ServerConnection } from './eraConnection.js';
import type {
  CallOptions,
  CallToolOptions,
  McpClientOptions,
  ProgressCallOptions,
  RawCallOptions,
  RawCallToolResult,
  StartToolResult,
} from './mcpClientOptions.js';
import { RpcClient } from './rpcClient.js';
import type { TaskRpc } from './taskDriver.js';
import type { RequestResult } from './taskHandle.js';
import { ToolCalls } from './toolCalls.js';

type Params = Readonly<Record<string, unknown>>;

/**
 * An MCP client. With a 2026-07-28 server every request is self-describing (protocol version, capabilities and
 * client info in `_meta`), so the client holds no session; the state it keeps is the negotiated version, the result
 * cache and the journal. With a 2025-era server (see `versionNegotiation`) it holds that server's session: the
 * `initialize` result, and the tasks it runs for the server. Methods may be called concurrently.
 */
export class McpClient {
  readonly #transport: ClientTransport;
  readonly #capabilities: ClientCapabilities;
  readonly #era: EraConnection;
  readonly #requests: ClientRequests;
  readonly #tools: ToolCalls;

  /**
   * Creates the client; nothing is sent until the first call (or {@link McpClient.connect}), which chooses the protocol
   * era. The client owns `options.transport` from here on.
   */
  constructor(options: McpClientOptions) {
    const settings = resolveClientSettings(options);
    const { transport, clientInfo } = options;
    const { capabilities, cache } = settings;
    const onNotification = (notification: TransportNotification) => cache?.invalidate(notification);
    const rpc = new RpcClient({ ...settings, transport, clientInfo, onNotification });
    const legacy = createLegacyParts({
      ...settings,
      send: (method, params, sendOptions) => this.#requests.send(method, params, sendOptions),
      progressToken: () => this.#requests.progressToken(),
      listTools: (signal) => this.listAllTools({ signal }),
      declared: () => this.#era.legacy?.declared ?? {},
      onNotification: options.onNotification,
    });
    this.#era = new EraConnection({ ...settings, rpc, transport, clientInfo, legacy });
    this.#requests = new ClientRequests({ ...settings, rpc, era: this.#era });
    const operations: TaskRpc = {
      get: (id, signal) => this.getTask(id, { signal }),
      update: (id, responses, signal) => this.updateTask(id, responses, { signal }),
      cancel: (id, signal) => this.cancelTask(id, { signal }),
    };
    this.#tools = new ToolCalls({ ...settings, requests: this.#requests, operations });
    this.#transport = transport;
    this.#capabilities = capabilities;
    // Installed up front: a 2025-era server may ping during the handshake.
    transport.setPeerHandler?.(legacy.peerHandler);
  }

  /**
   * Chooses the protocol era now (it is otherwise chosen by the first call) and tells what was negotiated: the
   * era, the version, and the server's `server/discover` or `initialize` result. Idempotent; concurrent calls share
   * one negotiation, and a failed one is tried again by the next call. `signal` only stops waiting.
   */
  connect(options: CallOptions = {}): Promise<ServerConnection> {
    return this.#era.connect(options.signal);
  }

  /** The capabilities every request declares. */
  get capabilities(): ClientCapabilities {
    return this.#capabilities;
  }

  /**
   * The protocol version in use: the one a 2025-era session negotiated, else the one 2026-07-28 requests declare
   * (changes after a `-32022` retry).
   */
  get protocolVersion(): string {
    return this.#era.protocolVersion;
  }

  /** One page of `tools/list` (cached per `ttlMs`). */
  async listTools(cursor?: string, options: CallOptions = {}): Promise<ListToolsResult> {
    return this.#requests.typed('tools/list', ListToolsResultSchema, page(cursor), options);
  }

  /** Every tool, following `nextCursor` to the end. */
  async listAllTools(options: CallOptions = {}): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.listTools(cursor, options);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  /**
   * Calls a tool and resolves with its final `CallToolResult`, whatever the server chose: a direct result,
   * MRTR rounds answered by the handlers, or a task driven to its end by polling. A `completed` task gives
   * its result even with `isError: true`; other outcomes reject with the typed errors of `driveTask`.
   * It is `startTool` followed, for a task, by the same drive as `resumeTask` (seeded with the `CreateTaskResult`).
   */
  async callTool(name: string, args: Params = {}, options: CallToolOptions = {}): Promise<CallToolResult> {
    const started = await this.startTool(name, args, options);
    if (started.kind === 'complete') return started.result;
    return this.#tools.drive(started.task.taskId, started.task, options, {
      method: 'tools/call',
      params: { name, arguments: args },
    });
  }

  /**
   * Calls a tool up to the point where the server has either answered or created a task, and stops there: MRTR
   * rounds are answered by the handlers, then it resolves with `{ kind: 'complete', result }` or with
   * `{ kind: 'task', task }` (the `CreateTaskResult`, in whatever status), after recording the task in the
   * journal when one is configured. Nothing polls the task afterwards and `signal` no longer applies to it:
   * follow it later with `resumeTask`, `getTask` or `cancelTask` (e.g. a CLI's `--detach`).
   */
  async startTool(name: string, args: Params = {}, options: ProgressCallOptions = {}): Promise<StartToolResult> {
    // A 2025-era task belongs to the session and cannot be followed later: that era runs the call to its end.
    return this.#era.startTool(name, args, options, () => this.#tools.start(name, args, options));
  }

  /**
   * Drives an existing task (e.g. one listed by the journal after a restart) to its end exactly as `callTool`
   * would, starting with an immediate `tasks/get`. Input handlers learn the tool name and arguments from the
   * journal entry when there is one.
   */
  async resumeTask(taskId: string, options: CallToolOptions = {}): Promise<CallToolResult> {
    await this.#era.requireModern('resuming a task', options.signal);
    return this.#tools.resume(taskId, options);
  }

  /**
   * Sends one `tools/call` and returns what came back, without answering input, journaling or driving a task: the
   * building block for callers that run the MRTR rounds themselves (`startTool` runs them with the handlers).
   */
  async callToolRaw(name: string, args: Params = {}, options: RawCallOptions = {}): Promise<RawCallToolResult> {
    return this.#tools.raw(name, args, options);
  }

  /** `tasks/get`: the task's current state. `-32602` (not found or expired) rejects as a `ProtocolError`. */
  async getTask(taskId: string, options: CallOptions = {}): Promise<DetailedTask> {
    await this.#era.requireModern('tasks/get (as a DetailedTask)', options.signal);
    return this.#requests.typed('tasks/get', GetTaskResultSchema, { taskId }, options);
  }

  /** `tasks/update`: delivers answers to outstanding input requests. The ack carries no task state. */
  async updateTask(taskId: string, inputResponses: InputResponses, options: CallOptions = {}): Promise<void> {
    await this.#era.requireModern('tasks/update', options.signal);
    await this.request('tasks/update', { taskId, inputResponses }, options);
  }

  /** `tasks/cancel`: asks the server to cancel. The task may still end otherwise. */
  async cancelTask(taskId: string, options: CallOptions = {}): Promise<void> {
    await this.request('tasks/cancel', { taskId }, options);
  }

  /** `server/discover`: versions, capabilities and instructions (cached per `ttlMs`). */
  async discover(options: CallOptions = {}): Promise<DiscoverResult> {
    await this.#era.requireModern('server/discover', options.signal);
    return this.#requests.typed('server/discover', DiscoverResultSchema, {}, options);
  }

  /** One page of `prompts/list` (cached per `ttlMs`). */
  async listPrompts(cursor?: string, options: CallOptions = {}): Promise<ListPromptsResult> {
    return this.#requests.typed('prompts/list', ListPromptsResultSchema, page(cursor), options);
  }

  /** `prompts/get`, answering MRTR rounds with the handlers. */
  async getPrompt(
    name: string,
    args?: Readonly<Record<string, string>>,
    options: ProgressCallOptions = {},
  ): Promise<GetPromptResult> {
    const params = args === undefined ? { name } : { name, arguments: args };
    return this.#requests.typed('prompts/get', GetPromptResultSchema, params, options);
  }

  /** One page of `resources/list` (cached per `ttlMs`). */
  async listResources(cursor?: string, options: CallOptions = {}): Promise<ListResourcesResult> {
    return this.#requests.typed('resources/list', ListResourcesResultSchema, page(cursor), options);
  }

  /** One page of `resources/templates/list` (cached per `ttlMs`). */
  async listResourceTemplates(cursor?: string, options: CallOptions = {}): Promise<ListResourceTemplatesResult> {
    return this.#requests.typed('resources/templates/list', ListResourceTemplatesResultSchema, page(cursor), options);
  }

  /** `resources/read`, answering MRTR rounds; cached per `ttlMs` unless it took a retry. */
  async readResource(uri: string, options: ProgressCallOptions = {}): Promise<ReadResourceResult> {
    return this.#requests.typed('resources/read', ReadResourceResultSchema, { uri }, options);
  }

  /** `completion/complete`: argument autocompletion. */
  async complete(params: Omit<CompleteRequestParams, '_meta'>, options: CallOptions = {}): Promise<CompleteResult> {
    return this.#requests.typed('completion/complete', CompleteResultSchema, params, options);
  }

  /**
   * Sends any request with the envelope and resolves with its `complete` result, checked only for its shape as a
   * result (the typed methods validate against the method's schema). `input_required` on an MRTR method is
   * answered by the handlers. When the server answers with a task (`resultType: "task"`, e.g. `tools/call` of a
   * task-capable tool), it resolves with that `CreateTaskResult` instead of a result: the task exists on the
   * server and is now the caller's to follow (`resumeTask`, `getTask`, `cancelTask`); it is neither polled nor
   * journaled, and {@link isTaskHandle} tells it apart. Cacheable methods are served from and stored in the cache,
   * except results that took an MRTR retry and task handles. `onProgress` sees the progress of requests actually
   * sent (the progress token is not part of the cache key).
   */
  async request(method: string, params: Params = {}, options: ProgressCallOptions = {}): Promise<RequestResult> {
    return this.#requests.request(method, params, options);
  }

  /** Closes the transport. Idempotent. In-flight calls reject with the transport's error. */
  close(): Promise<void> {
    return this.#transport.close();
  }

  /**
   * Resolves once the transport's connection is closed for good: `initiator: 'local'` after {@link close},
   * `'remote'` when the server went away (its process exited, the socket closed). From then on every call
   * rejects with `TransportError('closed')`; a host reconnects by creating a new client. Never rejects.
   */
  get closed(): Promise<TransportClosed> {
    return this.#transport.closed;
  }
}

/** The params of one page of a list: the cursor, when there is one. */
function page(cursor: string | undefined): Params {
  return cursor === undefined ? {} : { cursor };
}
