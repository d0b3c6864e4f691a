import { delay } from '@mcp-tasks/protocol';

/**
 * The time source the client's scheduling runs on. Injectable so polling logic is testable with fake timers or a
 * hand-driven clock, and so nothing in the client reaches for globals it cannot control.
 */
export interface Clock {
  /** Milliseconds since the epoch, comparable with `Date.parse` of server timestamps. */
  now(): number;
  /**
   * Resolves after `ms` milliseconds. Rejects with `signal.reason` as soon as `signal` aborts (immediately if it
   * already has), and clears its timer so an aborted sleep keeps nothing alive.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Calls `callback` once after `ms` milliseconds and returns the function that cancels it (idempotent; a no-op
   * once it ran). Optional: a clock without it has each wait of a task driven through `sleep` with an
   * `AbortController` of its own, which on Node 20 costs a waiting task about 2.5 KB more heap.
   */
  timer?(ms: number, callback: () => void): () => void;
}

/** The default clock: `Date.now` and `setTimeout` (both honoured by `vi.useFakeTimers`). */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: delay,
  timer: (ms, callback) => {
    const handle = setTimeout(callback, ms);
    return () => clearTimeout(handle);
  },
};
