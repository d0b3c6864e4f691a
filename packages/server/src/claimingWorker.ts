import type { ExecutionHost, TaskExecutor } from './taskExecutor.js';

const DEFAULT_CONCURRENCY = 16;
const DEFAULT_CLAIM_INTERVAL_MS = 1_000;

/** Options of the {@link ClaimingWorker}. */
export interface ClaimingWorkerOptions {
  /** Most tasks this worker runs at once. @default 16 */
  readonly concurrency?: number;
  /**
   * How often the worker claims when nothing told it of new work: the longest a task of a lost worker waits after
   * its lease lapsed. @default 1_000
   */
  readonly claimIntervalMs?: number;
  /** Receives a claim that failed (a store unreachable); the worker claims again at the next tick. */
  readonly onError?: (error: unknown) => void;
}

/**
 * The built-in {@link TaskExecutor}: claims runnable durable tasks from the store (PostgreSQL: `FOR UPDATE SKIP
 * LOCKED`, so any number of instances share the queue) up to its concurrency, runs each here, and claims again when
 * a run ends, when a write makes a task runnable, and every `claimIntervalMs`.
 */
export class ClaimingWorker implements TaskExecutor {
  readonly #concurrency: number;
  readonly #intervalMs: number;
  readonly #onError: (error: unknown) => void;
  #host: ExecutionHost | undefined;
  #running = 0;
  #claiming: Promise<void> | undefined;
  /** A claim was asked for while one ran: claim again once it ends. */
  #again = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  #off: (() => void) | undefined;
  #stopped = false;

  /** A worker with `options` (defaults: 16 at once, a claim every second); it claims nothing before `start`. */
  constructor(options: ClaimingWorkerOptions = {}) {
    this.#concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
    this.#intervalMs = Math.max(1, options.claimIntervalMs ?? DEFAULT_CLAIM_INTERVAL_MS);
    this.#onError = options.onError ?? ((error) => console.error('ClaimingWorker:', error));
  }

  /** Tasks this worker runs now. */
  get running(): number {
    return this.#running;
  }

  start(host: ExecutionHost): void {
    if (this.#host !== undefined || this.#stopped) return;
    this.#host = host;
    this.#off = host.onRunnable(() => this.#claimSoon());
    this.#timer = setInterval(() => this.#claimSoon(), this.#intervalMs);
    // The timer never keeps a process alive on its own.
    (this.#timer as { unref?: () => void }).unref?.();
    this.#claimSoon();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    this.#off?.();
    await this.#claiming;
  }

  #claimSoon(): void {
    if (this.#stopped) return;
    if (this.#claiming !== undefined) {
      this.#again = true;
      return;
    }
    this.#claiming = this.#claimRound().finally(() => {
      this.#claiming = undefined;
      if (this.#again) {
        this.#again = false;
        this.#claimSoon();
      }
    });
  }

  async #claimRound(): Promise<void> {
    const host = this.#host;
    const free = this.#concurrency - this.#running;
    if (host === undefined || free <= 0) return;
    let claimed: Awaited<ReturnType<ExecutionHost['claim']>>;
    try {
      claimed = await host.claim(free);
    } catch (error) {
      this.#onError(error);
      return;
    }
    for (const task of claimed) {
      this.#running += 1;
      void host.run(task).finally(() => {
        this.#running -= 1;
        this.#claimSoon();
      });
    }
    // A full batch suggests more is waiting.
    if (claimed.length === free) this.#again = true;
  }
}
