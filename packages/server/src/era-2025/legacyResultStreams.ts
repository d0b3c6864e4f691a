import type { LegacyPeerAsk } from './legacyPeerAsk.js';

/** A `tasks/result` request waiting on a task, and the way to the client on its own stream. */
interface Waiter {
  readonly ask: LegacyPeerAsk;
  /** The `tasks/result` request's signal: aborted once its stream is gone. */
  readonly signal: AbortSignal;
}

/**
 * The `tasks/result` requests of this instance that are waiting, by task: a question of a running task goes to
 * the client on the stream of the newest one (over HTTP the client reads that stream for sure), and through the
 * session otherwise. Local to one instance; a `tasks/result` served elsewhere leaves questions on the session.
 */
export class LegacyResultStreams {
  readonly #waiting = new Map<string, Waiter[]>();
  /** Questions of durable tasks the client holds as requests in its session here: `taskId` NUL `key`. */
  readonly #pending = new Set<string>();

  /** Registers a waiting `tasks/result`; call the returned function when it ends. */
  hold(taskId: string, ask: LegacyPeerAsk, signal: AbortSignal): () => void {
    const waiter: Waiter = { ask, signal };
    const list = this.#waiting.get(taskId) ?? [];
    list.push(waiter);
    this.#waiting.set(taskId, list);
    return () => {
      const rest = (this.#waiting.get(taskId) ?? []).filter((entry) => entry !== waiter);
      if (rest.length === 0) this.#waiting.delete(taskId);
      else this.#waiting.set(taskId, rest);
    };
  }

  /**
   * Sends `request` on the newest live `tasks/result` stream of the task, else through `fallback`. When that
   * stream ends before the client answered, the request is sent again through `fallback`.
   */
  async ask(taskId: string, fallback: LegacyPeerAsk, ...args: Parameters<LegacyPeerAsk>): ReturnType<LegacyPeerAsk> {
    const waiter = this.#waiting
      .get(taskId)
      ?.filter((entry) => !entry.signal.aborted)
      .at(-1);
    if (waiter === undefined) return fallback(...args);
    try {
      return await waiter.ask(...args);
    } catch (error) {
      if (!waiter.signal.aborted || args[1].aborted) throw error;
      return fallback(...args);
    }
  }

  /** Whether a live `tasks/result` of the task waits here. */
  waiting(taskId: string): boolean {
    return this.#waiting.get(taskId)?.some((entry) => !entry.signal.aborted) === true;
  }

  /**
   * Records that the client holds the durable task's question `key` as a request in its session here (sent by the
   * run that asked it), so a `tasks/result` here does not send it again; call the returned function once that
   * request ended.
   */
  pending(taskId: string, key: string): () => void {
    const id = `${taskId}\u0000${key}`;
    this.#pending.add(id);
    return () => this.#pending.delete(id);
  }

  /** Whether the client holds the question `key` of the task as a request in its session here. */
  isPending(taskId: string, key: string): boolean {
    return this.#pending.has(`${taskId}\u0000${key}`);
  }

  /** Tasks with a waiting `tasks/result` (for leak checks). */
  get size(): number {
    return this.#waiting.size;
  }
}
