/**
 * oidc-provider's storage contract on one in-process Map, shared by every model, so the harness can make the
 * authorization server forget refresh tokens (the "expired refresh token" case) without waiting for their TTL.
 */
type Payload = Record<string, unknown> & { grantId?: string; userCode?: string; uid?: string; consumed?: number };

interface Entry {
  readonly payload: Payload;
  readonly expiresAt: number | undefined;
}

/** Every stored entry, by `model:id`. */
export class MemoryStorage {
  readonly #entries = new Map<string, Entry>();

  get(key: string): Payload | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt !== undefined && entry.expiresAt <= Date.now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.payload;
  }

  set(key: string, payload: Payload, expiresInSeconds: number | undefined): void {
    const expiresAt = expiresInSeconds === undefined ? undefined : Date.now() + expiresInSeconds * 1000;
    this.#entries.set(key, { payload, expiresAt });
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  /** Deletes every entry matching `test`; returns how many. */
  deleteWhere(test: (key: string, payload: Payload) => boolean): number {
    let deleted = 0;
    for (const [key, entry] of this.#entries) {
      if (!test(key, entry.payload)) continue;
      this.#entries.delete(key);
      deleted++;
    }
    return deleted;
  }

  find(test: (key: string, payload: Payload) => boolean): Payload | undefined {
    for (const [key, entry] of this.#entries) if (test(key, entry.payload)) return this.get(key);
    return undefined;
  }
}

/** The adapter class oidc-provider instantiates once per model name, over one {@link MemoryStorage}. */
export function memoryAdapter(storage: MemoryStorage) {
  return class MemoryAdapter {
    readonly #model: string;

    constructor(model: string) {
      this.#model = model;
    }

    #key(id: string): string {
      return `${this.#model}:${id}`;
    }

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      storage.set(this.#key(id), payload, expiresIn);
    }

    async find(id: string): Promise<Payload | undefined> {
      return storage.get(this.#key(id));
    }

    async findByUserCode(userCode: string): Promise<Payload | undefined> {
      return storage.find((key, payload) => key.startsWith(`${this.#model}:`) && payload.userCode === userCode);
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      return storage.find((key, payload) => key.startsWith(`${this.#model}:`) && payload.uid === uid);
    }

    async consume(id: string): Promise<void> {
      const payload = storage.get(this.#key(id));
      if (payload !== undefined) payload.consumed = Math.floor(Date.now() / 1000);
    }

    async destroy(id: string): Promise<void> {
      storage.delete(this.#key(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      storage.deleteWhere((_key, payload) => payload.grantId === grantId);
    }
  };
}
