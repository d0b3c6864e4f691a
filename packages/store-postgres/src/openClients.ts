import type pg from 'pg';

/**
 * The `pg` clients whose sockets are still open, so a closing store can wait until every one has closed: a client's
 * `end()` (and a pool's) resolves once the goodbye is sent, but the socket closes only when the server hangs up.
 */
export class OpenClients {
  readonly #open = new Map<pg.Client, Promise<void>>();

  /** Tracks a client that has started connecting, until it emits `end` (its socket closed). */
  track(client: pg.Client): void {
    if (this.#open.has(client)) return;
    const ended = new Promise<void>((resolve) =>
      client.once('end', () => {
        this.#open.delete(client);
        resolve();
      }),
    );
    this.#open.set(client, ended);
  }

  /** Asks every tracked client to end. */
  endAll(): void {
    for (const client of this.#open.keys()) client.end().catch(() => undefined);
  }

  /** Resolves once every tracked client has ended (it asks none to end). */
  async allEnded(): Promise<void> {
    await Promise.all(this.#open.values());
  }
}
