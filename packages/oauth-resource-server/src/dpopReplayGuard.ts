/**
 * Remembers the DPoP proofs a resource server accepted, so the same proof is not accepted twice (RFC 9449 section
 * 11.1: a captured proof replayed with its token). A proof is identified by its key's thumbprint and its `jti`; it
 * needs remembering only until its `iat` window closes, after which the age check refuses it anyway.
 */
export interface DPoPReplayGuard {
  /**
   * True the first time a proof is seen, false for a replay. `key` is the proof's identity (key thumbprint and
   * `jti`); `expiresAt` (ms since the epoch) is when it stops being acceptable, so it need not be remembered after.
   * Called only for proofs that passed every other check, so a forged proof cannot use up a `jti`. A guard shared by
   * several instances (a database, a cache) makes a replay to another instance fail too.
   */
  firstUse(key: string, expiresAt: number): boolean | Promise<boolean>;
}

/** Options of {@link createDPoPReplayGuard}. */
export interface DPoPReplayGuardOptions {
  /**
   * Most proofs remembered at once (default 100,000, about 10 MB). When more unexpired proofs arrive within the
   * window, the oldest are forgotten first: a replay of one of those is no longer caught.
   */
  readonly maxEntries?: number | undefined;
  /** The clock, ms since the epoch (default `Date.now`). */
  readonly now?: (() => number) | undefined;
}

/** The default of {@link DPoPReplayGuardOptions.maxEntries}. */
export const DEFAULT_DPOP_REPLAY_ENTRIES = 100_000;

/**
 * An in-process {@link DPoPReplayGuard}: proofs are kept in arrival order and dropped once expired (checked at the
 * front on every call, so the cost is constant per proof) or when the bound is reached. Each instance remembers
 * only the proofs it accepted; plug a shared guard into `bearerAuthenticate` to catch a replay across instances.
 */
export function createDPoPReplayGuard(options: DPoPReplayGuardOptions = {}): DPoPReplayGuard {
  const maxEntries = options.maxEntries ?? DEFAULT_DPOP_REPLAY_ENTRIES;
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError('maxEntries must be a positive integer');
  const now = options.now ?? Date.now;
  const seen = new Map<string, number>();
  return {
    firstUse(key, expiresAt) {
      const at = now();
      for (const [oldest, expiry] of seen) {
        // Arrival order is close to expiry order (the window is the same for every proof): stop at the first live one.
        if (expiry > at) break;
        seen.delete(oldest);
      }
      const known = seen.get(key);
      if (known !== undefined && known > at) return false;
      seen.delete(key);
      if (seen.size >= maxEntries) seen.delete(seen.keys().next().value as string);
      seen.set(key, expiresAt);
      return true;
    },
  };
}
