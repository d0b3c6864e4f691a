import { type LegacyProtocolVersion, onAbort, type PeerSession, type TransportNotification } from '@mcp-tasks/protocol';
import { invalidParams } from '../errors.js';
import type { JsonObject } from '../jsonRpc.js';
import type { ListKind } from '../listenHub.js';
import type { LogLevel } from '../logLevels.js';

/** Most `resources/subscribe` URIs one session may hold at once. */
const MAX_SUBSCRIPTIONS_PER_SESSION = 1024;

/** What one 2025-era session fixed in `initialize`, and what it changed since. */
export interface LegacySessionState {
  readonly session: PeerSession;
  readonly protocolVersion: LegacyProtocolVersion;
  /** The client's capabilities as declared in `initialize`. */
  readonly clientCapabilities: JsonObject;
  readonly clientInfo: JsonObject;
  /** True once the client sent `notifications/initialized`. */
  initialized: boolean;
  /** The minimum level set by `logging/setLevel`; no log messages until one is set. */
  logLevel: LogLevel | undefined;
  /** URIs of `resources/subscribe`. */
  readonly subscriptions: Set<string>;
}

interface Entry {
  state: LegacySessionState;
  /** Removes the session-closed listener that drops this entry. */
  readonly offClose: () => void;
}

/**
 * The 2025-era session states of one server, keyed by session id. A state is dropped when its session's `closed`
 * aborts; at most `maxSessions` are kept, the oldest dropped first, so a transport that never ends its sessions
 * cannot grow this without bound.
 */
export class LegacySessions {
  readonly #entries = new Map<string, Entry>();
  readonly #maxSessions: number;

  constructor(maxSessions: number) {
    this.#maxSessions = Math.max(1, maxSessions);
  }

  /** The number of live states. */
  get size(): number {
    return this.#entries.size;
  }

  get(session: PeerSession): LegacySessionState | undefined {
    return this.#entries.get(session.id)?.state;
  }

  /** Starts (or restarts, on a repeated `initialize`) the state of `state.session`. */
  open(state: LegacySessionState): void {
    const { session } = state;
    const existing = this.#entries.get(session.id);
    if (existing !== undefined) {
      existing.state = state;
      return;
    }
    while (this.#entries.size >= this.#maxSessions) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#drop(oldest);
    }
    this.#entries.set(session.id, { state, offClose: onAbort(session.closed, () => this.#drop(session.id)) });
  }

  /** Drops every state (server shutdown). */
  clear(): void {
    for (const id of [...this.#entries.keys()]) this.#drop(id);
  }

  /** Sends `notifications/<kind>/list_changed` to every initialized session. */
  listChanged(kind: ListKind): void {
    this.#broadcast((state) => state.initialized, { jsonrpc: '2.0', method: `notifications/${kind}/list_changed` });
  }

  /** Sends `notifications/resources/updated` to every session subscribed to `uri`. */
  resourceUpdated(uri: string): void {
    this.#broadcast((state) => state.subscriptions.has(uri), {
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri },
    });
  }

  /** Adds a subscription; `-32602` once the session holds the maximum. Idempotent. */
  static subscribe(state: LegacySessionState, uri: string): void {
    if (!state.subscriptions.has(uri) && state.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_SESSION) {
      throw invalidParams(`Invalid params: a session may subscribe to at most ${MAX_SUBSCRIPTIONS_PER_SESSION} URIs`);
    }
    state.subscriptions.add(uri);
  }

  #broadcast(to: (state: LegacySessionState) => boolean, notification: TransportNotification): void {
    for (const { state } of this.#entries.values()) {
      if (to(state)) state.session.notify(notification);
    }
  }

  #drop(id: string): void {
    const entry = this.#entries.get(id);
    if (entry === undefined) return;
    this.#entries.delete(id);
    entry.offClose();
  }
}
