/**
 * The task-side half of a notification-driven observer: pushed states queue up for the driver, and whenever no
 * subscription is live the driver polls on its usual schedule. Shared by the per-task listen observer and the
 * per-client listen multiplexer, which differ only in where the pushes come from.
 */
import { type DetailedTask, onAbort } from '@mcp-tasks/protocol';
import type { Clock } from './clock.js';
import type { TaskObserver } from './taskDriver.js';

/** What a notification source tells one task's observer. */
export interface ObserverFeed {
  /** A state pushed by the server for this task. */
  state(task: DetailedTask): void;
  /**
   * The subscription to this task became live (`true`: poll once at once, unless a pushed state arrives first,
   * to catch changes made before it took effect) or stopped being live (`false`: poll on the usual schedule).
   */
  live(isLive: boolean): void;
}

/** Options of {@link queuedObserver}. */
export interface QueuedObserverOptions {
  /** One `tasks/get`. */
  readonly poll: (signal: AbortSignal) => Promise<DetailedTask>;
  readonly clock: Clock;
  /** While live, a safety poll still runs after this long without a notification. */
  readonly safetyPollMs: number;
  /** Called once by the observer's `close()`. */
  readonly onClose: () => void;
  /**
   * How a newly live subscription catches up with changes made before it took effect: `now` polls once at once
   * (after one turn of the event loop, unless a pushed state arrives first); `scheduled` keeps the poll that was
   * due anyway (a pushed state arriving first replaces it), for a stream whose pushed states may come in a burst.
   */
  readonly catchUp: 'now' | 'scheduled';
}

type Item = { readonly kind: 'state'; readonly task: DetailedTask } | { readonly kind: 'poll_now' };

/** The reason a wait's own sleep is cut short with (its rejection is ignored). */
const WOKEN = Symbol('woken');

/** An observer fed by {@link ObserverFeed}; polls whenever nothing was pushed in time. */
export function queuedObserver(options: QueuedObserverOptions): { observer: TaskObserver; feed: ObserverFeed } {
  const queue: Item[] = [];
  let wake: (() => void) | undefined;
  let live = false;
  let closed = false;
  /** Live, and the catch-up poll is still due unless a pushed state arrives first. */
  let catchUp = false;
  let liveRounds = 0;
  const push = (item: Item): void => {
    queue.push(item);
    wake?.();
  };
  const feed: ObserverFeed = {
    state(task) {
      // A state pushed after the subscription became live is at least as fresh as the catch-up poll would read.
      catchUp = false;
      const pending = queue.findIndex((item) => item.kind === 'poll_now');
      if (pending !== -1) queue.splice(pending, 1);
      push({ kind: 'state', task });
    },
    live(isLive) {
      if (isLive === live) return;
      live = isLive;
      if (!isLive) {
        catchUp = false;
        liveRounds++;
        wake?.();
        return;
      }
      if (options.catchUp === 'scheduled') return;
      // Servers commonly send each task's current state right behind the acknowledgement: give it one turn of
      // the event loop to arrive before spending a tasks/get on the catch-up.
      catchUp = true;
      const round = ++liveRounds;
      options.clock.sleep(0).then(() => {
        if (round === liveRounds && catchUp && !closed) push({ kind: 'poll_now' });
      });
    },
  };

  const setWake = (wakeUp: (() => void) | undefined): void => {
    wake = wakeUp;
  };
  const observer: TaskObserver = {
    async next(delayMs, signal) {
      signal.throwIfAborted();
      if (queue.length === 0) await waitOrWake(options.clock, live ? options.safetyPollMs : delayMs, signal, setWake);
      const item = queue.shift();
      if (item?.kind === 'state') return item.task;
      return options.poll(signal);
    },
    close() {
      if (closed) return;
      closed = true;
      options.onClose();
    },
  };
  return { observer, feed };
}

/**
 * Waits `ms`, or less when the wake function handed to `setWake` is called first (it is unset again once the wait
 * settles). Rejects with `signal.reason` on abort, without resolving first: a resolved wait would read as "poll now"
 * and send a spurious tasks/get.
 */
function waitOrWake(
  clock: Clock,
  ms: number,
  signal: AbortSignal,
  setWake: (wake: (() => void) | undefined) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let cancelTimer: () => void = () => undefined;
    const settle = (): void => {
      setWake(undefined);
      cancelTimer();
      off();
    };
    const done = (): void => {
      settle();
      resolve();
    };
    const off = onAbort(signal, () => {
      settle();
      reject(signal.reason);
    });
    setWake(done);
    cancelTimer = clock.timer === undefined ? sleepTimer(clock, ms, done) : clock.timer(ms, done);
  });
}

/**
 * A cancellable timer made of `clock.sleep`, for a clock without `timer`: an `AbortController` per timer. Only a
 * sleep still running is cut short, and with a shared reason: `abort()` without one builds a DOMException, stack
 * trace included, and a client waiting on 1,000 tasks settles a wait per notification.
 */
function sleepTimer(clock: Clock, ms: number, callback: () => void): () => void {
  const timer = new AbortController();
  let slept = false;
  clock.sleep(ms, timer.signal).then(
    () => {
      slept = true;
      callback();
    },
    () => undefined,
  );
  return () => {
    if (!slept) timer.abort(WOKEN);
  };
}
