/** Options of the introspection answer cache of `createIntrospectionVerifier`. */
export interface IntrospectionCacheOptions {
  /** Tokens remembered at most; the least recently used is forgotten first. @default 1000 */
  readonly maxEntries?: number | undefined;
  /**
   * Longest time an accepted token's answer is reused, in milliseconds; never beyond the token's `exp`. A token
   * revoked at the authorization server stays accepted here for up to this long. @default 60000
   */
  readonly maxTtlMs?: number | undefined;
  /** Time a refused token's answer is reused (inactive, another audience…), in milliseconds. @default 5000 */
  readonly negativeTtlMs?: number | undefined;
}

interface Entry<T> {
  readonly value: Promise<T>;
  /** Epoch milliseconds; infinite while the answer is still awaited (concurrent callers share it). */
  expiresAt: number;
}

/**
 * Answers by token, each kept for the time `ttlOf` gives it (0 or less: not kept), bounded in number (least recently
 * used out first). A load that rejects is never kept, so a transient failure is retried by the next caller. Keys are
 * SHA-256 digests: the tokens themselves are not held.
 */
export class AnswerCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #maxEntries: number;

  constructor(maxEntries: number) {
    this.#maxEntries = Math.max(1, maxEntries);
  }

  /** Number of answers held (pending ones included). */
  get size(): number {
    return this.#entries.size;
  }

  /** The kept answer for `token`, or the one `load` gives (shared by callers that ask while it is awaited). */
  async get(token: string, load: () => Promise<T>, ttlOf: (value: T) => number): Promise<T> {
    const key = await digest(token);
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      this.#entries.delete(key);
      if (hit.expiresAt > Date.now()) {
        this.#entries.set(key, hit);
        return hit.value;
      }
    }
    const entry: Entry<T> = { value: load(), expiresAt: Number.POSITIVE_INFINITY };
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, entry);
    const drop = () => {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
    };
    entry.value.then((value) => {
      const ttl = ttlOf(value);
      if (ttl > 0) entry.expiresAt = Date.now() + ttl;
      else drop();
    }, drop);
    return entry.value;
  }
}

async function digest(token: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
