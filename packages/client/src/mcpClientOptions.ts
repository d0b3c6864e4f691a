/** The options and result types of `McpClient`. */
import type {
  CallToolResult,
  ClientCapabilities,
  ClientTransport,
  Implementation,
  InputResponses,
  TransportNotification,
} from '@mcp-tasks/protocol';
import type { TaskStatusListener } from './changedStatusListener.js';
import type { ClassifiedResult } from './classifyResult.js';
import type { Clock } from './clock.js';
import type { InputHandlers } from './inputResolver.js';
import type { ListenOptions } from './listenOptions.js';
import type { ProgressListener } from './progressHandler.js';
import type { TaskJournal } from './taskJournal.js';
import type { PollingOptions } from './taskTracker.js';
import type { VersionNegotiation } from './versionNegotiation.js';

/** Task support settings: polling knobs plus where to journal pending tasks. */
export interface TaskSupportOptions extends PollingOptions {
  /** Records pending tasks so a restarted process can resume them. */
  readonly journal?: TaskJournal | undefined;
  /**
   * Also subscribe to the driven tasks with `subscriptions/listen` and take their states from
   * `notifications/tasks`. The tasks the client drives share a few streams (at most
   * {@link ListenOptions.maxStreams}, 8 by default): tasks that start together join through one new listen request
   * carrying only their ids; once the bound is reached, that request also takes over the live tasks of the stream
   * with the fewest, which closes once the new one is acknowledged. A task polls as without `listen` until its
   * subscription is acknowledged (the poll due then is its catch-up, unless a notification arrives first), and for
   * good when the server leaves it out of the acknowledgement or its stream ends; while live, a slow safety poll
   * still runs every `maxIntervalMs`. `true` means `{}`. @default false
   */
  readonly listen?: boolean | ListenOptions | undefined;
}

/** Options of {@link McpClient}. */
export interface McpClientOptions {
  /** The channel to the server. The client owns it from here on: `close()` closes it. */
  readonly transport: ClientTransport;
  /** Sent as `_meta["io.modelcontextprotocol/clientInfo"]` on every request. */
  readonly clientInfo: Implementation;
  /** Input handlers; each registered one is declared as a capability on every request. */
  readonly handlers?: InputHandlers | undefined;
  /** Declare and drive the Tasks extension. @default true */
  readonly tasks?: boolean | TaskSupportOptions | undefined;
  /** Extra capabilities merged into the derived ones (e.g. `{ elicitation: { url: {} } }`). */
  readonly capabilities?: ClientCapabilities | undefined;
  /** Protocol versions spoken, most preferred first. @default [LATEST_PROTOCOL_VERSION] */
  readonly protocolVersions?: readonly string[] | undefined;
  /** MRTR rounds allowed for one call before it fails as an invalid response. @default 10 */
  readonly maxInputRounds?: number | undefined;
  /** Cache cacheable results per their `ttlMs`. @default true */
  readonly cache?: boolean | undefined;
  /** Time source for polling, TTLs and cache freshness. @default systemClock */
  readonly clock?: Clock | undefined;
  /**
   * How the protocol era is chosen: `'auto'` probes with `server/discover` and falls back to the 2025-era
   * `initialize` handshake; `{ pin }` speaks one version without probing. See {@link VersionNegotiation}.
   * @default 'auto'
   */
  readonly versionNegotiation?: VersionNegotiation | undefined;
  /**
   * With `versionNegotiation: 'auto'`: how long the `server/discover` probe may go unanswered before the server is
   * taken for a 2025-era one (some ignore requests before `initialize`) and the probe is abandoned. A 2026-07-28
   * server that starts slower than this would be mistaken, so keep it above its start-up time. @default 5000
   */
  readonly probeTimeoutMs?: number | undefined;
  /**
   * Sees the notifications a 2025-era server sends outside any request of this client (log messages, list
   * changes, task status), on transports that carry them. Called synchronously; exceptions are ignored.
   */
  readonly onNotification?: ((notification: TransportNotification) => void) | undefined;
}

/** Per-call options. */
export interface CallOptions {
  /** Aborting rejects the call with `signal.reason`; with a task in flight it first sends `tasks/cancel`. */
  readonly signal?: AbortSignal | undefined;
}

/** Options of the requests that can report progress: `tools/call`, `prompts/get`, `resources/read`, `request`. */
export interface ProgressCallOptions extends CallOptions {
  /**
   * Asks for progress: every request sent (each MRTR round is a new request) carries a fresh
   * `_meta.progressToken`, and the server's `notifications/progress` for it arrive here in order, before that
   * request's response. Once a tool call has become a task there is no more progress, and a result
   * served from the cache reports none.
   */
  readonly onProgress?: ProgressListener | undefined;
}

/** Options of {@link McpClient.callTool} and {@link McpClient.resumeTask} (which has no use for `onProgress`). */
export interface CallToolOptions extends ProgressCallOptions {
  /**
   * Sees each observed task state that changed since the last one it saw (status, status message or
   * `lastUpdatedAt`), the seed first (only when the server chose a task). A poll that finds nothing new is not reported.
   */
  readonly onStatus?: TaskStatusListener | undefined;
  /**
   * In a 2025-11-25 session with a server that runs `tools/call` as tasks: ask for a task for a tool whose
   * `execution.taskSupport` is `optional` (`true`, or `{ ttlMs }` to request a retention). Tools that require a
   * task always get one. Ignored on 2026-07-28, where the server decides.
   */
  readonly task?:
    | boolean
    | {
        /** The retention to request for the task, in ms. */
        readonly ttlMs?: number | undefined;
      }
    | undefined;
}

/** Options of {@link McpClient.callToolRaw}: one request, nothing driven. */
export interface RawCallOptions extends ProgressCallOptions {
  /** Answers to a previous `input_required` result. */
  readonly inputResponses?: InputResponses | undefined;
  /** The previous `input_required` result's `requestState`, byte-identical. */
  readonly requestState?: string | undefined;
}

/** What one `tools/call` request produced: its `CallToolResult`, an MRTR round to answer, or a task. */
export type RawCallToolResult = ClassifiedResult<CallToolResult>;

/**
 * What {@link McpClient.startTool} produced once the MRTR rounds are over: the tool's `CallToolResult`, or the
 * `CreateTaskResult` of a task nobody is driving yet.
 */
export type StartToolResult = Exclude<
  RawCallToolResult,
  {
    /** Excluded: `startTool` answers input rounds itself. */
    readonly kind: 'input_required';
  }
>;
