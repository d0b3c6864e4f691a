import type { TaskStore } from '@mcp-tasks/task-store';
import type { ExecutionOptions } from './executionOptions.js';
import type { CacheableMethod, CacheHint } from './serverRoutes.js';
import type { TelemetryOptions } from './telemetryOptions.js';

/** Options of `McpServer`. */
export interface McpServerOptions {
  /**
   * Sent as `_meta["io.modelcontextprotocol/serverInfo"]` on every 2026-07-28 result, and as `serverInfo` in the
   * `initialize` result of a 2025-era session. Copied when the server is made: later changes to this object are
   * not seen by 2026-07-28 results (a polled task's result is written once and kept).
   */
  readonly serverInfo: {
    /** Programmatic name of the server implementation. */
    readonly name: string;
    /** Its version. */
    readonly version: string;
    /** Display name for UIs. */
    readonly title?: string;
  };
  /** Told to clients in `server/discover` and in the `initialize` result of a 2025-era session. */
  readonly instructions?: string;
  /** Where tasks live. @default a new InMemoryTaskStore, closed by `McpServer.close` */
  readonly taskStore?: TaskStore;
  /** Defaults for the tasks this server creates. */
  readonly tasks?: {
    /** @default 3_600_000 (one hour) */
    readonly ttlMs?: number | null;
    /** @default 1000 */
    readonly pollIntervalMs?: number;
    /** Answer directly when a task-mode tool finishes within this many ms. @default 0 (always a task) */
    readonly immediateResultMs?: number;
    /** @default 16 */
    readonly maxInputRequestsPerTask?: number;
    /**
     * Most live (unfinished) tasks one principal may hold in the default in-memory store at once; finished tasks do
     * not count. One more `tools/call` that would create a task gets `-32029` (HTTP 429 with `Retry-After`), never
     * an internal error. Ignored when you pass `taskStore`: configure the limits on the store you create.
     * @default 10_000
     */
    readonly maxTasksPerPrincipal?: number;
    /**
     * Most finished tasks one principal keeps in the default in-memory store: when it starts a task while holding
     * more, those that finished first are removed before `keepFinishedMs` ends (a later `tasks/get` of one answers
     * like an unknown task). Bounds the memory of a principal that finishes tasks quickly. Ignored when you pass
     * `taskStore`. @default 10_000
     */
    readonly maxFinishedTasksPerPrincipal?: number;
    /**
     * How long this instance's lease on a running task lasts without renewal (renewed every third of it). When a
     * lease lapses (the instance died), any instance sharing the store fails the task with `-32603` naming the lost
     * worker, or restarts a `resumable` tool. @default 30_000
     */
    readonly leaseMs?: number;
    /**
     * How long a finished (completed, failed or cancelled) task stays at most: the terminal write shortens its
     * `ttlMs` (as `tasks/get` reports it) to the time since creation plus this, when that is sooner than its TTL, so
     * finished tasks leave the store soon after they end. `null` keeps them until their TTL (or until
     * `maxFinishedTasksPerPrincipal` pushes them out). @default 600_000
     */
    readonly keepFinishedMs?: number | null;
    /**
     * Most distinct task ids of one `subscriptions/listen` request the server considers: the first this many, in
     * request order. Its acknowledgement lists those of them the caller owns; ids past the limit are left out like
     * unknown ones, and the client polls them (the mcp-tasks client puts at most 1,000 on one stream by default).
     * Bounds what one request can make the server hold. @default 1_000
     */
    readonly maxTaskIdsPerListen?: number;
    /** This instance's id in leases and lost-worker errors. @default a random id per server */
    readonly workerId?: string;
  };
  /** Durable execution of `durable` tools. */
  readonly execution?: ExecutionOptions;
  /**
   * OpenTelemetry traces and metrics of the tasks (see `TelemetryOptions`): a span per task from its creation to its
   * terminal status, child of the caller's span (`_meta.traceparent`), with step, input-wait and re-run spans, and
   * the task metrics. @default the globally registered providers; nothing is recorded when none is configured
   */
  readonly telemetry?: TelemetryOptions;
  /** Whether `McpServer.close` closes the task store. @default true when the server created the store */
  readonly closeTaskStore?: boolean;
  /** HMAC key for MRTR `requestState`. @default a random key per server instance */
  readonly requestStateSecret?: string | Uint8Array;
  /** @default 600_000 */
  readonly requestStateTtlMs?: number;
  /** Items per list page. @default 100 */
  readonly pageSize?: number;
  /** Per-method cache hints. @default `{ ttlMs: 0, cacheScope: 'private' }`, discover `'public'` */
  readonly cacheHints?: Partial<Record<CacheableMethod, CacheHint>>;
  /**
   * Most 2025-era sessions whose state (negotiated version, capabilities, log level, subscriptions) is kept at once;
   * the oldest is forgotten first. A session's state is dropped anyway when its transport ends it. @default 10_000
   */
  readonly maxLegacySessions?: number;
  /** Receives unexpected exceptions (answered as `-32603` without details). @default console.error */
  readonly onError?: (error: unknown) => void;
}
