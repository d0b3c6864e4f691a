import type { RandomFill } from './taskId.js';
import type { TaskStoreLimits } from './taskStore.js';

/** Options for `InMemoryTaskStore`; every one has a default suitable for production. */
export interface InMemoryTaskStoreOptions extends TaskStoreLimits {
  /** Epoch milliseconds (an integer). @default Date.now */
  readonly now?: () => number;
  /** Schedules the single expiry timer. @default setTimeout, unref'd where the platform supports it */
  readonly setTimer?: (callback: () => void, delayMs: number) => unknown;
  /** Cancels a handle returned by `setTimer`. @default clearTimeout */
  readonly clearTimer?: (handle: unknown) => void;
  /** Source of random bytes for task ids. @default globalThis.crypto.getRandomValues */
  readonly randomFill?: RandomFill;
  /** Receives exceptions thrown by change-feed listeners. @default console.error */
  readonly onListenerError?: (error: unknown) => void;
}

/** A snapshot of what an `InMemoryTaskStore` holds (see `stats()`). */
export interface InMemoryTaskStoreStats {
  /** Stored tasks, all owners, including terminal ones not yet expired. */
  readonly tasks: number;
  /** Owners with at least one stored task. */
  readonly owners: number;
  /** Change-feed listeners (`watch`). */
  readonly watchers: number;
  /** Expiry heap entries, including stale ones awaiting their turn. */
  readonly deadlineEntries: number;
  /** Lease heap entries, including stale ones. */
  readonly leaseEntries: number;
  /** Runnable-queue heap entries (durable tasks), including stale ones. */
  readonly runnableEntries: number;
  /** Tasks with recorded steps. */
  readonly stepTasks: number;
  /** Whether the single expiry timer is scheduled. */
  readonly timerActive: boolean;
}
