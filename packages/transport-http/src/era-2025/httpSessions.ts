import { HttpSession, type SessionBounds } from './httpSession.js';

/**
 * Bounds of the 2025-era sessions a handler keeps (Streamable HTTP with `Mcp-Session-Id`). Every field is optional;
 * see {@link HTTP_SESSION_DEFAULTS}.
 */
export interface HttpSessionOptions {
  /** Sessions alive at once (including ones whose `initialize` is still running); one more `initialize` gets 503. */
  readonly maxSessions?: number;
  /**
   * A session with no request in flight, no GET stream and no POST for this long ends (its id then gets 404).
   * 0 disables expiry.
   */
  readonly idleTimeoutMs?: number;
  /** Server-to-client requests of one session awaiting the client at once; one more rejects without being sent. */
  readonly maxPendingRequests?: number;
  /** Messages of one session held while it has no GET stream open; past it the oldest is dropped. */
  readonly maxQueuedMessages?: number;
}

/** The defaults of {@link HttpSessionOptions}. */
export const HTTP_SESSION_DEFAULTS = Object.freeze({
  /** Same as {@link HttpSessionOptions.maxSessions}. */
  maxSessions: 10_000,
  /** Same as {@link HttpSessionOptions.idleTimeoutMs} (30 minutes). */
  idleTimeoutMs: 30 * 60_000,
  /** Same as {@link HttpSessionOptions.maxPendingRequests}. */
  maxPendingRequests: 64,
  /** Same as {@link HttpSessionOptions.maxQueuedMessages}. */
  maxQueuedMessages: 256,
});

/** A session id: 128 random bits from the platform's CSPRNG, as a UUID (visible ASCII, as the spec requires). */
function newSessionId(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * The live sessions of one handler, by id. A session is provisional from `create` until its `initialize` got a
 * result (`HttpSession.commit`); `find` sees committed sessions only. Ended sessions leave the registry at once.
 */
export class HttpSessions {
  readonly #live = new Map<string, HttpSession>();
  readonly #maxSessions: number;
  readonly #bounds: SessionBounds;
  #closed = false;

  constructor(options: HttpSessionOptions = {}) {
    this.#maxSessions = options.maxSessions ?? HTTP_SESSION_DEFAULTS.maxSessions;
    this.#bounds = {
      idleTimeoutMs: options.idleTimeoutMs ?? HTTP_SESSION_DEFAULTS.idleTimeoutMs,
      maxPendingRequests: options.maxPendingRequests ?? HTTP_SESSION_DEFAULTS.maxPendingRequests,
      maxQueuedMessages: options.maxQueuedMessages ?? HTTP_SESSION_DEFAULTS.maxQueuedMessages,
    };
  }

  /** How many sessions are alive, provisional ones included. */
  get size(): number {
    return this.#live.size;
  }

  /** A new provisional session for `principal`, or undefined when the cap is reached or the handler closed. */
  create(principal: string | undefined): HttpSession | undefined {
    if (this.#closed || this.#live.size >= this.#maxSessions) return undefined;
    const session = new HttpSession(newSessionId(), principal, this.#bounds, (ended) => {
      if (this.#live.get(ended.id) === ended) this.#live.delete(ended.id);
    });
    this.#live.set(session.id, session);
    return session;
  }

  /** The committed, live session `id` names, if it belongs to `principal`. */
  find(id: string, principal: string | undefined): HttpSession | undefined {
    const session = this.#live.get(id);
    return session?.committed === true && session.principal === principal ? session : undefined;
  }

  /** Ends every session and refuses new ones. Idempotent. */
  close(): void {
    this.#closed = true;
    for (const session of [...this.#live.values()]) session.end();
  }
}
