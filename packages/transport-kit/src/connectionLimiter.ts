/** Options of {@link ConnectionLimiter}. */
export interface ConnectionLimits {
  /** Connections open at once in total. */
  readonly maxConnections: number;
  /** Connections open at once from one client address. */
  readonly maxConnectionsPerClient: number;
}

/** Which cap refused a connection: `total` (answer 503) or `perClient` (answer 429). */
export type ConnectionRefusal = 'total' | 'perClient';

/**
 * Counts open connections in total and per client address, for the transports that accept sockets (HTTP and
 * WebSocket). `acquire` either counts a connection in or names the cap it would break; every successful acquire
 * must be paired with exactly one `release` when that connection closes.
 */
export class ConnectionLimiter {
  readonly #limits: ConnectionLimits;
  readonly #perClient = new Map<string, number>();
  #total = 0;

  /** Creates a limiter with no connection counted. */
  constructor(limits: ConnectionLimits) {
    this.#limits = limits;
  }

  /** Connections counted in now. */
  get total(): number {
    return this.#total;
  }

  /** Counts a connection from `address` in; returns the cap it would break instead (nothing counted then). */
  acquire(address: string): ConnectionRefusal | undefined {
    if (this.#total >= this.#limits.maxConnections) return 'total';
    const mine = this.#perClient.get(address) ?? 0;
    if (mine >= this.#limits.maxConnectionsPerClient) return 'perClient';
    this.#total++;
    this.#perClient.set(address, mine + 1);
    return undefined;
  }

  /** Counts one connection from `address` out. */
  release(address: string): void {
    const mine = this.#perClient.get(address);
    if (mine === undefined) return;
    this.#total--;
    if (mine <= 1) this.#perClient.delete(address);
    else this.#perClient.set(address, mine - 1);
  }
}
