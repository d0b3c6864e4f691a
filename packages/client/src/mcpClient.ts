/**
 * `McpClient`: the runtime-neutral MCP 2026-07-28 client with the Tasks extension. It talks to a server only
 * through a `ClientTransport`.
 */
import {
  type CallToolResult,
  CallToolResultSchema,
  type ClientCapabilities,
  type ClientTransport,
  type CompleteRequestParams,
  type CompleteResult,
  CompleteResultSchema,
  type CreateTaskResult,
  type DetailedTask,
  type DiscoverResult,
  DiscoverResultSchema,
  type GetPromptResult,
  GetPromptResultSchema,
  GetTaskResultSchema,
  type InputResponses,
  isRecord,
  LATEST_PROTOCOL_VERSION,
  type ListPromptsResult,
  ListPromptsResultSchema,
  type ListResourcesResult,
  ListResourcesResultSchema,
  type ListResourceTemplatesResult,
  ListResourceTemplatesResultSchema,
  type ListToolsResult,
  ListToolsResultSchema,
  META,
  ProtocolError,
  type ReadResourceResult,
  ReadResourceResultSchema,
  type Tool,
  type TransportClosed,
  type TransportNotification,
  withFields,
} from '@mcp-tasks/protocol';
import { classifyResult } from './classifyResult.js';
import { buildClientCapabilities } from './clientCapabilities.js';
import { type Clock, systemClock } from './clock.js';
import { EraConnection, type ServerConnection } from './eraConnection.js';
import { UnsupportedInEraError } from './errors.js';
import type { InputHandlers } from './inputResolver.js';
import { type RoundsOutcome, runInputRounds } from './inputRounds.js';
import { buildLegacyCapabilities } from './legacyCapabilities.js';
import { CallsInFlight, legacyPeerHandler } from './legacyPeerHandler.js';
import { type LegacyCallOptions, LegacyToolCalls } from './legacyTaskDriver.js';
import { LegacyTaskReceiver } from './legacyTaskReceiver.js';
import { type ListenMultiplexer, listenMultiplexer } from './listenMultiplexer.js';
import type {
  CallOptions,
  CallToolOptions,
  McpClientOptions,
  ProgressCallOptions,
  RawCallOptions,
  RawCallToolResult,
  StartToolResult,
} from './mcpClientOptions.js';
import { parseResult as parse } from './parseResult.js';
import { progressHandler } from './progressHandler.js';
import { normaliseCacheHints, ResultCache } from './resultCache.js';
import { type RawResult, RpcClient } from './rpcClient.js';
import { type DriveTaskOptions, driveTask, type TaskOperations } from './taskDriver.js';
import type { RequestResult } from './taskHandle.js';
import type { TaskJournal } from './taskJournal.js';
import { type ResolvedPollingOptions, resolvePollingOptions } from './taskTracker.js';
import { checkNegotiation } from './versionNegotiation.js';

type Params = Readonly<Record<string, unknown>>;

/**
 * An MCP client. With a 2026-07-28 server every request is self-describing (protocol version, capabilities and
 * client info in `_meta`), so the client holds no session; the state it keeps is the negotiated version, the result
 * cache and the journal. With a 2025-era server (see `versionNegotiation`) it holds that server's session: the
 * `initialize` result, and the tasks it runs for the server. Methods may be called concurrently.
 */
export class McpClient {
  readonly #rpc: RpcClient;
  readonly #transport: ClientTransport;
  readonly #handlers: InputHandlers;
  readonly #capabilities: ClientCapabilities;
  readonly #tasksEnabled: boolean;
  readonly #polling: ResolvedPollingOptions;
  readonly #journal: TaskJournal | undefined;
  /** The listen stream(s) shared by the tasks this client drives, with `tasks.listen`. */
  readonly #listen: ListenMultiplexer | undefined;
  readonly #clock: Clock;
  readonly #cache: ResultCache | undefined;
  readonly #maxInputRounds: number;
  readonly #era: EraConnection;
  readonly #calls = new CallsInFlight();
  readonly #legacyTools: LegacyToolCalls;
  /** Progress of 2025-era tasks, which arrives outside the request that asked for it. */
  readonly #progressRoutes = new Map<string, (notification: TransportNotification) => void>();
  #nextProgressToken = 1;

  /**
   * Creates the client; nothing is sent until the first call (or {@link McpClient.connect}), which chooses the protocol
   * era. The client owns `options.transport` from here on.
   */
  constructor(options: McpClientOptions) {
    const tasks = options.tasks ?? true;
    const taskOptions = typeof tasks === 'object' ? tasks : {};
    this.#transport = options.transport;
    this.#handlers = options.handlers ?? {};
    this.#tasksEnabled = tasks !== false;
    this.#capabilities = Object.freeze(
      buildClientCapabilities(this.#handlers, this.#tasksEnabled, options.capabilities),
    );
    this.#polling = resolvePollingOptions(taskOptions);
    this.#journal = taskOptions.journal;
    this.#clock = options.clock ?? systemClock;
    this.#cache = options.cache === false ? undefined : new ResultCache(this.#clock);
    this.#maxInputRounds = options.maxInputRounds ?? 10;
    const negotiation = checkNegotiation(options.versionNegotiation);
    this.#rpc = new RpcClient({
      transport: options.transport,
      clientInfo: options.clientInfo,
      protocolVersions: options.protocolVersions ?? [LATEST_PROTOCOL_VERSION],
      onNotification: (notification) => this.#cache?.invalidate(notification),
    });
    // Tasks a 2025-11-25 server asked this client to run (task-augmented elicitation and sampling).
    const receiver = new LegacyTaskReceiver(this.#clock);
    this.#listen = listenMultiplexer(taskOptions.listen, this.#clock, (params, onNotification, onSend, signal) =>
      this.#rpc.request('subscriptions/listen', params, {
        capabilities: this.#capabilities,
        signal,
        onNotification,
        onSend,
      }),
    );
    this.#era = new EraConnection({
      negotiation,
      rpc: this.#rpc,
      transport: options.transport,
      clientInfo: options.clientInfo,
      modernCapabilities: this.#capabilities,
      legacyCapabilities: (version) =>
        buildLegacyCapabilities(this.#handlers, version, options.capabilities, this.#tasksEnabled),
      onSessionEnd: () => receiver.clear(),
      probeTimeoutMs: options.probeTimeoutMs ?? 5000,
      clock: this.#clock,
    });
    this.#legacyTools = new LegacyToolCalls({
      send: (method, params, sendOptions) => this.#send(method, params, sendOptions),
      progressToken: () => `progress-${this.#nextProgressToken++}`,
      routeProgress: (token, route) => {
        this.#progressRoutes.set(token, route);
        return () => this.#progressRoutes.delete(token);
      },
      listTools: (signal) => this.listAllTools({ signal }),
      calls: this.#calls,
      clock: this.#clock,
      polling: this.#polling,
    });
    const onNotification = options.onNotification;
    // Installed up front: a 2025-era server may ping during the handshake.
    options.transport.setPeerHandler?.(
      legacyPeerHandler({
        handlers: this.#handlers,
        capabilities: () => this.#era.legacy?.declared ?? {},
        calls: this.#calls,
        receiver,
        onNotification: (notification) => {
          const token =
            notification.method === 'notifications/progress' ? notification.params?.progressToken : undefined;
          if (typeof token === 'string') this.#progressRoutes.get(token)?.(notification);
          this.#cache?.invalidate(notification);
          try {
            onNotification?.(notification);
          } catch {
            // The host's hook failing is no reason to drop the session.
          }
        },
      }),
    );
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
    return this.#era.legacy?.protocolVersion ?? this.#rpc.protocolVersion;
  }

  /** One page of `tools/list` (cached per `ttlMs`). */
  async listTools(cursor?: string, options: CallOptions = {}): Promise<ListToolsResult> {
    const result = await this.request('tools/list', cursor === undefined ? {} : { cursor }, options);
    return parse('tools/list', ListToolsResultSchema, result);
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
    if ((await this.#era.connect(options.signal)).era === 'legacy') return this.#callLegacy(name, args, options);
    const started = await this.startTool(name, args, options);
    if (started.kind === 'complete') return started.result;
    return this.#drive(started.task.taskId, started.task, options, {
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
    // A 2025-era task belongs to the session and cannot be followed later: run the call to its end.
    if ((await this.#era.connect(options.signal)).era === 'legacy')
      return { kind: 'complete', result: await this.#callLegacy(name, args, options) };
    const outcome = await this.#rounds('tools/call', { name, arguments: args }, options);
    if (outcome.kind === 'complete')
      return { kind: 'complete', result: parse('tools/call', CallToolResultSchema, outcome.result) };
    await this.#journal?.add({
      taskId: outcome.task.taskId,
      method: 'tools/call',
      name,
      arguments: args,
      recordedAt: new Date(this.#clock.now()).toISOString(),
    });
    return { kind: 'task', task: outcome.task };
  }

  /**
   * Drives an existing task (e.g. one listed by the journal after a restart) to its end exactly as `callTool`
   * would, starting with an immediate `tasks/get`. Input handlers learn the tool name and arguments from the
   * journal entry when there is one.
   */
  async resumeTask(taskId: string, options: CallToolOptions = {}): Promise<CallToolResult> {
    await this.#modernOnly('resuming a task', options.signal);
    const entry = (await this.#journal?.list())?.find((candidate) => candidate.taskId === taskId);
    const origin =
      entry === undefined
        ? { method: 'tools/call' }
        : { method: entry.method, params: { name: entry.name, arguments: entry.arguments ?? {} } };
    return this.#drive(taskId, undefined, options, origin);
  }

  /**
   * Sends one `tools/call` and returns what came back, without answering input, journaling or driving a task: the
   * building block for callers that run the MRTR rounds themselves (`startTool` runs them with the handlers).
   */
  async callToolRaw(name: string, args: Params = {}, options: RawCallOptions = {}): Promise<RawCallToolResult> {
    const params: Record<string, unknown> = { name, arguments: args };
    if (options.inputResponses !== undefined) params.inputResponses = options.inputResponses;
    if (options.requestState !== undefined) params.requestState = options.requestState;
    const classified = classifyResult(
      'tools/call',
      await this.#send('tools/call', params, options),
      this.#tasksEnabled,
    );
    if (classified.kind !== 'complete') return classified;
    return { kind: 'complete', result: parse('tools/call', CallToolResultSchema, classified.result) };
  }

  /** `tasks/get`: the task's current state. `-32602` (not found or expired) rejects as a `ProtocolError`. */
  async getTask(taskId: string, options: CallOptions = {}): Promise<DetailedTask> {
    await this.#modernOnly('tasks/get (as a DetailedTask)', options.signal);
    const result = await this.request('tasks/get', { taskId }, options);
    return parse('tasks/get', GetTaskResultSchema, result);
  }

  /** `tasks/update`: delivers answers to outstanding input requests. The ack carries no task state. */
  async updateTask(taskId: string, inputResponses: InputResponses, options: CallOptions = {}): Promise<void> {
    await this.#modernOnly('tasks/update', options.signal);
    await this.request('tasks/update', { taskId, inputResponses }, options);
  }

  /** `tasks/cancel`: asks the server to cancel. The task may still end otherwise. */
  async cancelTask(taskId: string, options: CallOptions = {}): Promise<void> {
    await this.request('tasks/cancel', { taskId }, options);
  }

  /** `server/discover`: versions, capabilities and instructions (cached per `ttlMs`). */
  async discover(options: CallOptions = {}): Promise<DiscoverResult> {
    await this.#modernOnly('server/discover', options.signal);
    return parse('server/discover', DiscoverResultSchema, await this.request('server/discover', {}, options));
  }

  /** One page of `prompts/list` (cached per `ttlMs`). */
  async listPrompts(cursor?: string, options: CallOptions = {}): Promise<ListPromptsResult> {
    const result = await this.request('prompts/list', cursor === undefined ? {} : { cursor }, options);
    return parse('prompts/list', ListPromptsResultSchema, result);
  }

  /** `prompts/get`, answering MRTR rounds with the handlers. */
  async getPrompt(
    name: string,
    args?: Readonly<Record<string, string>>,
    options: ProgressCallOptions = {},
  ): Promise<GetPromptResult> {
    const result = await this.request(
      'prompts/get',
      args === undefined ? { name } : { name, arguments: args },
      options,
    );
    return parse('prompts/get', GetPromptResultSchema, result);
  }

  /** One page of `resources/list` (cached per `ttlMs`). */
  async listResources(cursor?: string, options: CallOptions = {}): Promise<ListResourcesResult> {
    const result = await this.request('resources/list', cursor === undefined ? {} : { cursor }, options);
    return parse('resources/list', ListResourcesResultSchema, result);
  }

  /** One page of `resources/templates/list` (cached per `ttlMs`). */
  async listResourceTemplates(cursor?: string, options: CallOptions = {}): Promise<ListResourceTemplatesResult> {
    const result = await this.request('resources/templates/list', cursor === undefined ? {} : { cursor }, options);
    return parse('resources/templates/list', ListResourceTemplatesResultSchema, result);
  }

  /** `resources/read`, answering MRTR rounds; cached per `ttlMs` unless it took a retry. */
  async readResource(uri: string, options: ProgressCallOptions = {}): Promise<ReadResourceResult> {
    const result = await this.request('resources/read', { uri }, options);
    return parse('resources/read', ReadResourceResultSchema, result);
  }

  /** `completion/complete`: argument autocompletion. */
  async complete(params: Omit<CompleteRequestParams, '_meta'>, options: CallOptions = {}): Promise<CompleteResult> {
    return parse(
      'completion/complete',
      CompleteResultSchema,
      await this.request('completion/complete', params, options),
    );
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
    const cached = this.#cache?.get(method, params);
    if (cached !== undefined) return cached;
    let outcome: RoundsOutcome;
    try {
      outcome = await this.#rounds(method, params, options);
    } catch (error) {
      // A rejected cursor means the cached pages may no longer line up: start the list afresh next time.
      if (error instanceof ProtocolError && params.cursor !== undefined) this.#cache?.invalidateMethod(method);
      throw error;
    }
    if (outcome.kind === 'task') return outcome.task;
    const result = normaliseCacheHints(method, outcome.result);
    if (!outcome.retried) this.#cache?.set(method, params, result);
    return result;
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

  /**
   * Sends one request in the negotiated era; with `onProgress`, under a progress token no other request of this
   * client has used.
   */
  #send(method: string, params: Params, { signal, onProgress, ...rest }: LegacyCallOptions): Promise<RawResult> {
    let sent = params;
    let onNotification = rest.onNotification;
    if (onProgress !== undefined) {
      const token = `progress-${this.#nextProgressToken++}`;
      const meta = isRecord(params._meta) ? params._meta : {};
      sent = withFields(params, { _meta: withFields(meta, { [META.progressToken]: token }) });
      onNotification = progressHandler(token, onProgress);
    }
    const options = { signal, onNotification };
    return this.#era.send(method, sent, options, () =>
      this.#rpc.request(method, sent, withFields(options, { capabilities: this.#capabilities })),
    );
  }

  async #modernOnly(operation: string, signal: AbortSignal | undefined): Promise<void> {
    const connection = await this.#era.connect(signal);
    if (connection.era === 'legacy') throw new UnsupportedInEraError(operation, connection.protocolVersion);
  }

  async #callLegacy(name: string, args: Params, options: CallToolOptions): Promise<CallToolResult> {
    const session = this.#era.legacy;
    if (session === undefined) return this.callTool(name, args, options);
    const raw = await this.#legacyTools.call(session, name, args, options);
    // A 2025-era result has no resultType: it is complete.
    return parse('tools/call', CallToolResultSchema, withFields(raw, { resultType: 'complete' }));
  }

  #rounds(method: string, params: Params, options: ProgressCallOptions): Promise<RoundsOutcome> {
    return runInputRounds(method, params, {
      send: (attempt) => this.#send(method, attempt, options),
      handlers: this.#handlers,
      acceptsTask: this.#tasksEnabled,
      maxRounds: this.#maxInputRounds,
      signal: options.signal,
    });
  }

  #drive(
    taskId: string,
    seed: CreateTaskResult | undefined,
    options: CallToolOptions,
    origin: DriveTaskOptions<CallToolResult>['origin'],
  ): Promise<CallToolResult> {
    const operations: TaskOperations = {
      get: (id, signal) => this.getTask(id, { signal }),
      update: (id, inputResponses, signal) => this.updateTask(id, inputResponses, { signal }),
      cancel: (id, signal) => this.cancelTask(id, { signal }),
    };
    const observer = this.#listen?.observe(
      taskId,
      (signal) => this.getTask(taskId, { signal }),
      this.#polling.maxIntervalMs,
    );
    return driveTask(taskId, seed, {
      observer,
      operations,
      handlers: this.#handlers,
      polling: this.#polling,
      clock: this.#clock,
      // The stored result is what tools/call would have returned; it may omit resultType like any result.
      parseResult: (result) => {
        const classified = classifyResult('tasks/get', result as RawResult, false);
        return parse('tasks/get', CallToolResultSchema, classified.kind === 'complete' ? classified.result : result);
      },
      signal: options.signal,
      onStatus: options.onStatus,
      journal: this.#journal,
      origin,
    });
  }
}
