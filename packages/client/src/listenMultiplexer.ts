/**
 * The `subscriptions/listen` streams shared by every task a client drives, instead of one stream per task. A listen
 * request's task ids cannot be changed once sent, so tasks join through a new request carrying only the new ids
 * (the server answers it with their current states, not everyone's); a stream closes once all its tasks have left,
 * and when the open streams reach their bound the ones with the fewest live tasks are folded into the next request
 * and closed only after it is acknowledged, so no notification falls in a gap.
 */
import type { DetailedTask, TransportNotification } from '@mcp-tasks/protocol';
import type { Clock } from './clock.js';
import { planJoins } from './listenPlan.js';
import { type ListenMember, type ListenStream, stateKey } from './listenState.js';
import { type ObserverFeed, queuedObserver } from './observerQueue.js';
import type { TaskObserver } from './taskDriver.js';
import { acknowledgedTaskIds, type OpenListenStream, pushedTask, subscriptionIdOf } from './taskListener.js';

/** Options of {@link ListenMultiplexer}. */
export interface ListenMultiplexerOptions {
  readonly open: OpenListenStream;
  readonly clock: Clock;
  /** At most this many task ids in one listen request. */
  readonly maxTaskIdsPerStream: number;
  /** Open listen requests the multiplexer aims for (exceeded only when the per-stream cap leaves no choice). */
  readonly maxStreams: number;
  /** The least time between two rounds of listen requests: tasks that start meanwhile join together. */
  readonly joinIntervalMs: number;
  /**
   * Once `maxStreams` are open, the next round also re-lists the live tasks of the smallest stream (the server
   * sends each one's current state again): it waits this long per such task, so re-listing stays a small share of
   * the work however many tasks are in flight, and more joins share the cost.
   */
  readonly mergePauseMsPerTask: number;
  /** The longest such wait. */
  readonly mergePauseMaxMs: number;
}

/**
 * Multiplexes the listen subscriptions of many tasks over a few `subscriptions/listen` streams. Tasks join with
 * {@link observe} and leave when their observer closes. Joins are batched: the first opens a request at once (next
 * microtask), later ones wait until no request awaits its acknowledgement and `joinIntervalMs` has passed since the
 * last round, then join together, carrying only their own ids. Leaving sends nothing; a stream whose tasks have all
 * left is closed. Notifications are routed by subscription id and task id. A task missing from an acknowledgement,
 * or whose first listen request fails before its acknowledgement, polls for the rest of its drive. When a stream
 * ends after its acknowledgement (the connection dropped, a proxy's idle timeout, a server restart), its tasks poll
 * at once and join the next round; if that request fails too (the server is still down), each listens again after
 * its next successful poll. A task whose streams end within {@link QUICK_END_MS} of their acknowledgement, or whose
 * listen requests fail this way, {@link MAX_QUICK_ENDS} times in a row polls for the rest of its drive instead.
 */
export class ListenMultiplexer {
  readonly #options: ListenMultiplexerOptions;
  readonly #members = new Map<string, ListenMember>();
  /** Tasks waiting for the next round of listen requests. */
  readonly #joining = new Set<string>();
  readonly #serving = new Set<ListenStream>();
  readonly #opening = new Set<ListenStream>();
  #scheduled = false;
  #lastRoundAt = Number.NEGATIVE_INFINITY;

  constructor(options: ListenMultiplexerOptions) {
    this.#options = options;
  }

  /** Number of listen requests open now (serving or awaiting their acknowledgement). */
  get openStreams(): number {
    return this.#serving.size + this.#opening.size;
  }

  /** An observer of `taskId` fed by the shared streams; its `close()` leaves it. */
  observe(taskId: string, poll: (signal: AbortSignal) => Promise<DetailedTask>, safetyPollMs: number): TaskObserver {
    const { observer, feed } = queuedObserver({
      poll: (signal) =>
        poll(signal).then((task) => {
          this.#polled(taskId);
          return task;
        }),
      clock: this.#options.clock,
      safetyPollMs,
      onClose: () => this.#leave(taskId, feed),
      // A server may send the current states behind the acknowledgement in a burst spanning many reads: the poll
      // due anyway is the catch-up for a server that sends none.
      catchUp: 'scheduled',
    });
    const member = this.#members.get(taskId);
    if (member === undefined) {
      this.#members.set(taskId, {
        taskId,
        feeds: new Set([feed]),
        refused: false,
        quickEnds: 0,
        wasLive: false,
        relisten: false,
      });
      this.#joining.add(taskId);
      this.#schedule();
    } else {
      member.feeds.add(feed);
      if (member.liveOn !== undefined) feed.live(true);
    }
    return observer;
  }

  /** A poll of `taskId` succeeded: the server answers again, so a task waiting to listen again joins the next round. */
  #polled(taskId: string): void {
    const member = this.#members.get(taskId);
    if (member === undefined || !member.relisten || member.refused || member.liveOn !== undefined) return;
    member.relisten = false;
    this.#joining.add(taskId);
    this.#schedule();
  }

  #leave(taskId: string, feed: ObserverFeed): void {
    const member = this.#members.get(taskId);
    if (member === undefined || !member.feeds.delete(feed) || member.feeds.size > 0) return;
    this.#members.delete(taskId);
    this.#joining.delete(taskId);
    const stream = member.liveOn;
    if (stream === undefined) return;
    stream.live.delete(taskId);
    if (stream.live.size === 0) this.#close(stream);
  }

  /** Runs the next round of joins soon: once no request awaits its ack and the interval since the last passed. */
  #schedule(): void {
    if (this.#scheduled || this.#opening.size > 0 || this.#joining.size === 0) return;
    this.#scheduled = true;
    const pause = this.#lastRoundAt + this.#interval() - this.#options.clock.now();
    const flush = () => {
      this.#scheduled = false;
      this.#flush();
    };
    if (pause > 0) this.#options.clock.sleep(pause).then(flush, flush);
    else queueMicrotask(flush);
  }

  /** The least time from the last round to the next: longer when the next one will fold a stream in. */
  #interval(): number {
    const { joinIntervalMs, maxStreams, mergePauseMsPerTask, mergePauseMaxMs } = this.#options;
    let open = 0;
    let smallest = Number.POSITIVE_INFINITY;
    for (const stream of this.#serving) {
      if (stream.replacedBy !== undefined) continue;
      open++;
      smallest = Math.min(smallest, stream.live.size);
    }
    if (open < maxStreams) return joinIntervalMs;
    return Math.max(joinIntervalMs, Math.min(mergePauseMaxMs, smallest * mergePauseMsPerTask));
  }

  #flush(): void {
    if (this.#opening.size > 0 || this.#joining.size === 0) return;
    const joining = [...this.#joining];
    this.#joining.clear();
    const replaceable = [...this.#serving].filter((stream) => stream.replacedBy === undefined);
    this.#lastRoundAt = this.#options.clock.now();
    for (const request of planJoins(joining, replaceable, this.#options)) this.#open(request.taskIds, request.merges);
  }

  #open(taskIds: readonly string[], merges: readonly ListenStream[]): void {
    const stream: ListenStream = { controller: new AbortController(), taskIds, merges, live: new Set() };
    for (const merged of merges) merged.replacedBy = stream;
    this.#opening.add(stream);
    let request: Promise<unknown>;
    try {
      request = this.#options.open(
        { notifications: { taskIds } },
        (notification) => this.#onNotification(stream, notification),
        (id) => {
          stream.id = id;
        },
        stream.controller.signal,
      );
    } catch (error) {
      request = Promise.reject(error);
    }
    request.catch(() => undefined).finally(() => this.#onEnd(stream));
  }

  #onNotification(stream: ListenStream, notification: TransportNotification): void {
    if (stream.id === undefined || subscriptionIdOf(notification) !== stream.id) return;
    if (notification.method === 'notifications/subscriptions/acknowledged') {
      if (this.#opening.has(stream)) this.#onAck(stream, acknowledgedTaskIds(notification));
      return;
    }
    if (notification.method !== 'notifications/tasks') return;
    const taskId = notification.params?.taskId;
    const member = typeof taskId === 'string' ? this.#members.get(taskId) : undefined;
    // Only the stream a task is live on speaks for it: a replaced stream's late events are dropped.
    if (member === undefined || member.liveOn !== stream) return;
    // A replacing stream starts with the current state, which the replaced one may have delivered already.
    const seen = stateKey(notification.params);
    if (seen === member.lastSeen) return;
    const task = pushedTask(notification);
    if (task === undefined || task.taskId !== member.taskId) return;
    member.lastSeen = seen;
    for (const feed of member.feeds) feed.state(task);
  }

  #onAck(stream: ListenStream, agreed: readonly unknown[]): void {
    const requested = new Set(stream.taskIds);
    const acked = new Set<string>();
    for (const id of agreed) if (typeof id === 'string' && requested.has(id)) acked.add(id);
    stream.acked = acked;
    stream.ackedAt = this.#options.clock.now();
    this.#opening.delete(stream);
    this.#serving.add(stream);
    for (const taskId of stream.taskIds) {
      const member = this.#members.get(taskId);
      if (member === undefined) continue;
      member.liveOn?.live.delete(taskId);
      const live = acked.has(taskId);
      member.refused = !live;
      member.liveOn = live ? stream : undefined;
      if (live) member.wasLive = true;
      if (live) stream.live.add(taskId);
      for (const feed of member.feeds) feed.live(live);
    }
    for (const merged of stream.merges) this.#close(merged);
    stream.merges = [];
    if (stream.live.size === 0) this.#close(stream);
    this.#schedule();
  }

  /** Stops a stream; tasks still live on it (none when it closes as planned) poll from now on. */
  #close(stream: ListenStream): void {
    this.#serving.delete(stream);
    this.#opening.delete(stream);
    stream.controller.abort();
    this.#releaseLive(stream, false);
  }

  #onEnd(stream: ListenStream): void {
    if (this.#opening.delete(stream)) {
      // Failed before its ack: the tasks that were joining poll; one that listened before (the server may be
      // restarting) listens again after its next successful poll, the others poll from now on. The streams it
      // would have replaced keep serving and may be folded into a later request.
      for (const merged of stream.merges) if (merged.replacedBy === stream) merged.replacedBy = undefined;
      stream.merges = [];
      for (const taskId of stream.taskIds) {
        const member = this.#members.get(taskId);
        if (member === undefined || member.refused || member.liveOn !== undefined) continue;
        if (member.wasLive) member.quickEnds++;
        if (member.wasLive && member.quickEnds < MAX_QUICK_ENDS) member.relisten = true;
        else member.refused = true;
        for (const feed of member.feeds) feed.live(false);
      }
    }
    // Ended while serving (transport dropped, server shut down): its tasks poll at once and listen again.
    if (this.#serving.delete(stream)) this.#releaseLive(stream, true);
    this.#schedule();
  }

  /**
   * The tasks live on `stream` leave it, and each polls at once (its feed goes not-live). With `rejoin` (the stream
   * ended under them) each joins the next round, unless its streams keep ending soon after their acknowledgement (a
   * server or proxy that cuts every stream); without it (the client closed the stream) they poll from now on.
   */
  #releaseLive(stream: ListenStream, rejoin: boolean): void {
    const quick = this.#options.clock.now() - (stream.ackedAt ?? 0) < QUICK_END_MS;
    for (const taskId of stream.live) {
      const member = this.#members.get(taskId);
      if (member === undefined || member.liveOn !== stream) continue;
      member.liveOn = undefined;
      if (rejoin) member.quickEnds = quick ? member.quickEnds + 1 : 0;
      member.refused = !rejoin || member.quickEnds >= MAX_QUICK_ENDS;
      if (!member.refused) this.#joining.add(taskId);
      for (const feed of member.feeds) feed.live(false);
    }
    stream.live.clear();
  }
}

/** A stream that ends sooner than this after its acknowledgement counts as ended at once. */
export const QUICK_END_MS = 1000;

/** Streams in a row that may end at once (or fail, listening again) under a task before it only polls. */
export const MAX_QUICK_ENDS = 3;
