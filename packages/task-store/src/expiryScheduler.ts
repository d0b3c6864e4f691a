import { DeadlineHeap } from './deadlineHeap.js';

/** Timer functions the scheduler runs on (injectable for tests). */
export interface TimerFunctions {
  readonly now: () => number;
  readonly setTimer: (callback: () => void, delayMs: number) => unknown;
  readonly clearTimer: (handle: unknown) => void;
}

/** What one sweep did; `examined` counts heap entries inspected, the unit of expiry cost. */
export interface SweepOutcome {
  readonly examined: number;
  readonly expired: number;
}

/** Node clamps longer delays to 1 ms; a far deadline is reached through several shorter waits. */
const MAX_TIMER_DELAY = 2 ** 31 - 1;

/** `setTimeout`, unref'd where the platform supports it so an idle store never keeps the process alive. */
export const defaultTimers: TimerFunctions = {
  now: () => Date.now(),
  setTimer: (callback, delayMs) => {
    const handle: unknown = setTimeout(callback, delayMs);
    (handle as { unref?: () => void } | undefined)?.unref?.();
    return handle;
  },
  clearTimer: (handle) => clearTimeout(handle as number),
};

/**
 * One timer over a min-heap of task deadlines. Entries are never removed early: when one pops, `deadlineOf` gives
 * the task's current deadline (undefined when the task is gone or no longer expires) and the entry is dropped,
 * re-queued (deadline extended) or expired. So a sweep costs O(due × log n), not O(stored), and there is no
 * per-task timer.
 */
export class ExpiryScheduler {
  readonly #heap = new DeadlineHeap();
  readonly #timers: TimerFunctions;
  readonly #deadlineOf: (taskId: string) => number | undefined;
  readonly #expire: (taskId: string) => void;
  readonly #onSweep: (outcome: SweepOutcome) => void;
  #timer: unknown;
  #timerDeadline = Number.POSITIVE_INFINITY;
  #stopped = false;

  constructor(
    timers: TimerFunctions,
    deadlineOf: (taskId: string) => number | undefined,
    expire: (taskId: string) => void,
    onSweep: (outcome: SweepOutcome) => void,
  ) {
    this.#timers = timers;
    this.#deadlineOf = deadlineOf;
    this.#expire = expire;
    this.#onSweep = onSweep;
  }

  /** Heap entries, including stale ones. */
  get size(): number {
    return this.#heap.size;
  }

  /** Whether the timer is scheduled. */
  get active(): boolean {
    return this.#timer !== undefined;
  }

  /** Queues `deadline` (epoch ms) for `taskId`; only an earlier deadline than the scheduled one moves the timer. */
  add(deadline: number, taskId: string): void {
    if (this.#stopped) return;
    this.#heap.push(deadline, taskId);
    if (deadline < this.#timerDeadline) this.#schedule();
  }

  /** Cancels the timer and forgets every deadline; idempotent. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#timers.clearTimer(this.#timer);
    this.#timer = undefined;
    this.#heap.clear();
  }

  #schedule(): void {
    if (this.#timer !== undefined) this.#timers.clearTimer(this.#timer);
    this.#timer = undefined;
    this.#timerDeadline = this.#heap.peek();
    if (this.#timerDeadline === Number.POSITIVE_INFINITY) return;
    const delay = Math.min(Math.max(this.#timerDeadline - this.#timers.now(), 0), MAX_TIMER_DELAY);
    this.#timer = this.#timers.setTimer(() => this.#onTimer(), delay);
  }

  /**
   * Expires up to `limit` due tasks (deadline at or before `now`), then reschedules the timer. Stale entries are
   * dropped or re-queued on the way; the work is reported to `onSweep`.
   */
  sweep(now: number, limit: number): void {
    if (this.#stopped) return;
    let examined = 0;
    let expired = 0;
    while (this.#heap.size > 0 && expired < limit) {
      examined++;
      if (this.#heap.peek() > now) break;
      const taskId = this.#heap.pop() as string;
      const deadline = this.#deadlineOf(taskId);
      // Stale entry: the task is gone or its ttl was removed (drop), or the ttl was extended (re-queue).
      if (deadline === undefined) continue;
      if (deadline > now) {
        this.#heap.push(deadline, taskId);
        continue;
      }
      this.#expire(taskId);
      expired++;
    }
    this.#onSweep({ examined, expired });
    if (!this.#stopped) this.#schedule();
  }

  #onTimer(): void {
    this.#timer = undefined;
    this.sweep(this.#timers.now(), Number.POSITIVE_INFINITY);
  }
}
