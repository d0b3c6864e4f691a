import pg from 'pg';
import { OpenClients } from './openClients.js';

/** What the listening connection reports to its store. */
export interface ChangeListenerHooks {
  /** A notification's payload on the store's channel. */
  readonly onNotification: (payload: string) => void;
  /** Called once LISTEN is active again after the connection was lost: re-read what changed meanwhile. */
  readonly onReconnected: () => Promise<void>;
  /** A lost connection or a failed reconnect attempt (the listener keeps trying). */
  readonly onError: (error: unknown) => void;
}

const FIRST_RETRY_MS = 50;
const MAX_RETRY_MS = 5_000;

/**
 * The one connection of a store that LISTENs on its channel. When the connection drops it reconnects with backoff
 * (forever, until closed) and then asks the store to catch up, so no change is lost while it was down.
 */
export class ChangeListener {
  readonly #config: pg.ClientConfig;
  readonly #channel: string;
  readonly #hooks: ChangeListenerHooks;
  #client: pg.Client | undefined;
  /** Every client not yet ended: the listening one, one connecting, and lost ones still closing. */
  readonly #clients = new OpenClients();
  #retryMs = FIRST_RETRY_MS;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(config: pg.ClientConfig, channel: string, hooks: ChangeListenerHooks) {
    this.#config = config;
    this.#channel = channel;
    this.#hooks = hooks;
  }

  /** Connects and LISTENs; rejects when the first connection fails (the caller decides). */
  async start(): Promise<void> {
    await this.#connect();
  }

  /**
   * Stops reconnecting and closes the connection, also one being opened; resolves once every socket it opened has
   * closed. Idempotent.
   */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#client = undefined;
    this.#clients.endAll();
    await this.#clients.allEnded();
  }

  /** Drops the connection as a network failure would (for tests of the catch-up). */
  simulateDisconnect(): void {
    const client = this.#client;
    // Ends the socket under the client: it emits 'end' (and maybe 'error') like a lost connection.
    (client as unknown as { connection?: { stream?: { destroy(): void } } })?.connection?.stream?.destroy();
  }

  async #connect(): Promise<void> {
    const client = new pg.Client(this.#config);
    client.on('notification', (message) => {
      if (message.channel === this.#channel && message.payload !== undefined)
        this.#hooks.onNotification(message.payload);
    });
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client, new Error('The listening connection to PostgreSQL ended')));
    try {
      const connected = client.connect();
      this.#clients.track(client);
      await connected;
      await client.query(`LISTEN ${this.#channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#retryMs = FIRST_RETRY_MS;
  }

  #lost(client: pg.Client, error: unknown): void {
    if (this.#closed || this.#client !== client) return;
    this.#client = undefined;
    client.end().catch(() => undefined);
    this.#hooks.onError(error);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => void this.#retry(), this.#retryMs);
    this.#timer.unref?.();
    this.#retryMs = Math.min(this.#retryMs * 2, MAX_RETRY_MS);
  }

  async #retry(): Promise<void> {
    try {
      await this.#connect();
      if (!this.#closed) await this.#hooks.onReconnected();
    } catch (error) {
      if (this.#closed) return; // closed while reconnecting: the failure is the close's doing
      this.#hooks.onError(error);
      if (this.#client === undefined) this.#schedule();
    }
  }
}
