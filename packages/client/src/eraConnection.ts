/**
 * Decides, once per client, which protocol era the server speaks, and routes every request accordingly: the
 * 2026-07-28 envelope, or a 2025-era session (re-established once when the server lost it).
 */
import {
  type ClientCapabilities,
  type ClientTransport,
  type DiscoverResult,
  DiscoverResultSchema,
  type Implementation,
  type InitializeResult,
  LATEST_LEGACY_PROTOCOL_VERSION,
  type LegacyProtocolVersion,
  type TransportNotification,
} from '@mcp-tasks/protocol';
import type { Clock } from './clock.js';
import { type LegacyParts, LegacySession } from './era-2025/index.js';
import { UnsupportedInEraError } from './errors.js';
import type { CallToolOptions, StartToolResult } from './mcpClientOptions.js';
import { raceAbort } from './raceAbort.js';
import { normaliseCacheHints } from './resultCache.js';
import type { RawResult, RpcClient } from './rpcClient.js';
import { eraOfProbe, isSessionLost, pinnedLegacyVersion, type VersionNegotiation } from './versionNegotiation.js';

/**
 * What the client learned about the server when it chose the era. `modern`: 2026-07-28, with the probe's
 * `server/discover` result (absent when pinned, which skips the probe). `legacy`: a 2025-era session, with the
 * server's `initialize` result.
 */
export type ServerConnection =
  | {
      /** MCP 2026-07-28. */
      readonly era: 'modern';
      /** The version the client speaks with this server. */
      readonly protocolVersion: string;
      /** The server's `server/discover` result; absent when the version was pinned. */
      readonly discover?: DiscoverResult | undefined;
    }
  | {
      /** A 2025-era session. */
      readonly era: 'legacy';
      /** The version agreed in `initialize`. */
      readonly protocolVersion: LegacyProtocolVersion;
      /** The server's `initialize` result. */
      readonly initialize: InitializeResult;
    };

type Connected =
  | { readonly era: 'modern'; readonly discover?: DiscoverResult }
  | { readonly era: 'legacy'; readonly session: LegacySession };

/** Options of {@link EraConnection}. */
export interface EraConnectionOptions {
  readonly negotiation: VersionNegotiation;
  readonly rpc: RpcClient;
  readonly transport: ClientTransport;
  readonly clientInfo: Implementation;
  /** The capabilities 2026-07-28 requests declare (the probe too). */
  readonly capabilities: ClientCapabilities;
  /** The 2025 era's parts: what `initialize` declares, how its `tools/call` runs, what a session end forgets. */
  readonly legacy: Pick<LegacyParts, 'capabilities' | 'toolCalls' | 'onSessionEnd'>;
  /** How long the probe may go unanswered before the server counts as 2025-era. */
  readonly probeTimeoutMs: number;
  readonly clock: Clock;
}

/** Options of one routed request. */
export interface RoutedRequestOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onNotification?: ((notification: TransportNotification) => void) | undefined;
}

/**
 * The era decision and the requests that depend on it. Concurrent callers share one negotiation; a failed
 * negotiation is forgotten so the next call tries again.
 */
export class EraConnection {
  readonly #options: EraConnectionOptions;
  #pending: Promise<Connected> | undefined;
  #connected: Connected | undefined;
  /** The version of a 2025-era session the server lost: the next negotiation re-initializes it without a probe. */
  #lostVersion: LegacyProtocolVersion | undefined;

  constructor(options: EraConnectionOptions) {
    this.#options = options;
  }

  /** The session, once a 2025-era one is established. */
  get legacy(): LegacySession | undefined {
    return this.#connected?.era === 'legacy' ? this.#connected.session : undefined;
  }

  /**
   * The protocol version in use: the one a 2025-era session negotiated, else the one 2026-07-28 requests declare.
   */
  get protocolVersion(): string {
    return this.legacy?.protocolVersion ?? this.#options.rpc.protocolVersion;
  }

  /** Negotiates if nothing is known yet and describes the outcome. `signal` only stops waiting for it. */
  async connect(signal?: AbortSignal): Promise<ServerConnection> {
    const connected = await this.#connect(signal);
    if (connected.era === 'legacy')
      return {
        era: 'legacy',
        protocolVersion: connected.session.protocolVersion,
        initialize: connected.session.initialize,
      };
    return { era: 'modern', protocolVersion: this.#options.rpc.protocolVersion, discover: connected.discover };
  }

  /**
   * Sends one request in the negotiated era: `modern()` for 2026-07-28, the session otherwise. A 2025-era request
   * that finds the session gone (HTTP 404) renegotiates once and is sent again.
   */
  async send(
    method: string,
    params: Readonly<Record<string, unknown>>,
    options: RoutedRequestOptions,
    modern: () => Promise<RawResult>,
  ): Promise<RawResult> {
    const connected = await this.#connect(options.signal);
    if (connected.era === 'modern') return modern();
    try {
      return await connected.session.request(method, params, options);
    } catch (error) {
      if (!isSessionLost(error)) throw error;
      // The era is known: a new probe would send the 2026 version header to a 2025-era server.
      this.#lostVersion = connected.session.protocolVersion as LegacyProtocolVersion;
      this.#forget(connected);
      const again = await this.#connect(options.signal);
      return again.era === 'modern' ? modern() : again.session.request(method, params, options);
    }
  }

  /**
   * Runs `tools/call` in the negotiated era: `modern()` for 2026-07-28; in a 2025-era session the call runs to its
   * end there, because a 2025-era task belongs to the session and cannot be followed later.
   */
  async startTool(
    name: string,
    args: Readonly<Record<string, unknown>>,
    options: CallToolOptions,
    modern: () => Promise<StartToolResult>,
  ): Promise<StartToolResult> {
    const connected = await this.#connect(options.signal);
    if (connected.era === 'modern') return modern();
    // The session was found gone meanwhile: negotiate again.
    if (this.#connected !== connected) return this.startTool(name, args, options, modern);
    return {
      kind: 'complete',
      result: await this.#options.legacy.toolCalls.call(connected.session, name, args, options),
    };
  }

  /** Rejects with `UnsupportedInEraError` when the negotiated era has no `operation` (2025-era sessions). */
  async requireModern(operation: string, signal: AbortSignal | undefined): Promise<void> {
    const connection = await this.connect(signal);
    if (connection.era === 'legacy') throw new UnsupportedInEraError(operation, connection.protocolVersion);
  }

  #connect(signal: AbortSignal | undefined): Promise<Connected> {
    if (this.#pending === undefined) {
      const pending = this.#negotiate().then(
        (connected) => {
          if (this.#pending === pending) this.#connected = connected;
          return connected;
        },
        (error: unknown) => {
          if (this.#pending === pending) this.#pending = undefined;
          throw error;
        },
      );
      this.#pending = pending;
    }
    return raceAbort(this.#pending, signal);
  }

  #forget(connected: Connected): void {
    if (this.#connected !== connected) return;
    this.#connected = undefined;
    this.#pending = undefined;
    this.#options.legacy.onSessionEnd();
  }

  async #negotiate(): Promise<Connected> {
    const { negotiation } = this.#options;
    const pinned = pinnedLegacyVersion(negotiation);
    if (pinned !== undefined) return this.#initialize(pinned as LegacyProtocolVersion, true);
    const lost = this.#lostVersion;
    this.#lostVersion = undefined;
    if (lost !== undefined) return this.#initialize(lost, false);
    if (negotiation !== 'auto') return { era: 'modern' };
    const outcome = await this.#probe();
    if (outcome === 'timeout' || eraOfProbe(outcome) === 'legacy')
      return this.#initialize(LATEST_LEGACY_PROTOCOL_VERSION, false);
    const parsed =
      'result' in outcome
        ? DiscoverResultSchema.safeParse(normaliseCacheHints('server/discover', outcome.result))
        : undefined;
    return parsed?.success ? { era: 'modern', discover: parsed.data } : { era: 'modern' };
  }

  /**
   * `server/discover`, or `timeout` when it is not answered in time (some 2025-era servers ignore requests before
   * `initialize`); the unanswered probe is then abandoned.
   */
  async #probe(): Promise<{ result: RawResult } | { error: unknown } | 'timeout'> {
    const { rpc, capabilities, clock, probeTimeoutMs } = this.#options;
    const stop = new AbortController();
    const answered = rpc.request('server/discover', {}, { capabilities, signal: stop.signal }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    const timedOut = clock.sleep(probeTimeoutMs, stop.signal).then(
      () => 'timeout' as const,
      () => new Promise<never>(() => undefined),
    );
    try {
      return await Promise.race([answered, timedOut]);
    } finally {
      stop.abort();
    }
  }

  async #initialize(version: LegacyProtocolVersion, exact: boolean): Promise<Connected> {
    const { rpc, transport, clientInfo, legacy } = this.#options;
    const session = await LegacySession.open({
      rpc,
      transport,
      clientInfo,
      version,
      exact,
      capabilities: legacy.capabilities,
    });
    return { era: 'legacy', session };
  }
}
