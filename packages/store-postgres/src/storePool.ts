import pg from 'pg';

/** How the pool of a store waits: for a new connection to the server, and for a pooled client to come free. */
export interface StorePoolTimeouts {
  /** Pool size. */
  readonly max: number;
  /** Bounds opening one connection to the server (TCP, TLS, authentication). */
  readonly connectTimeoutMs: number;
  /** Bounds a call's wait for a free pooled client when all `max` are in use. */
  readonly poolWaitTimeoutMs: number;
}

/**
 * A `pg.Pool` whose two waits have separate bounds. pg-pool applies its `connectionTimeoutMillis` both to the wait
 * for a free client and to the opening of a new one, so a pool busy with a burst of calls would be reported like an
 * unreachable server. Here the pool's own timeout is the pool wait, and every client it creates carries the connect
 * timeout in its own config (`pg.Client` enforces `connectionTimeoutMillis` on its socket).
 */
export function createStorePool(config: pg.ClientConfig, timeouts: StorePoolTimeouts): pg.Pool {
  const { connectTimeoutMs } = timeouts;
  class StoreClient extends pg.Client {
    constructor(options?: pg.ClientConfig) {
      // pg-pool hides the password as a non-enumerable property, which a spread would drop.
      super({ ...options, password: options?.password, connectionTimeoutMillis: connectTimeoutMs });
    }
  }
  return new pg.Pool({
    ...config,
    max: timeouts.max,
    connectionTimeoutMillis: timeouts.poolWaitTimeoutMs,
    Client: StoreClient,
  });
}
