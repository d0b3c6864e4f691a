/**
 * One `subscriptions/listen` stream shared by every task a client drives, instead of one stream per task. A
 * listen request's task ids cannot be changed once sent, so a change of the set is a new request with the full
 * set; the stream it replaces is closed only after the new one is acknowledged, so no notification falls in a gap.
 */
import type { DetailedTask, TransportNotification } from '@mcp-tasks/protocol';
import type { Clock } from './clock.js';
import { type ObserverFeed, queuedObserver } from './observerQueue.js';
import type { TaskObserver } from './taskDriver.js';
import { acknowledgedTaskIds, type OpenListenStream, pushedTask, subscriptionIdOf } from './taskListener.js';

/** Options of {@link ListenMultiplexer}. */
export interface ListenMultiplexerOptions {
  readonly open: OpenListenStream;
  readonly clock: Clock;
  /** At most this many task ids in one listen request; more tasks share as few more streams as needed. */
  readonly maxTaskIdsPerStream: number;
  /**
   * Pause between two listen requests of one stream, per task id the next one carries: each carries the full set,
   * and the server answers it with every task's current state, so under churn this bounds the cost. Tasks that
   * joined meanwhile poll.
   */
  readonly relistenMsPerTask: number;
  /** The longest such pause. */
  readonly relistenMaxMs: number;
}

interface Member {
  readonly taskId: string;
  /** One per drive of this task (the same task may be driven twice at once, e.g. resumed while driven). */
  readonly feeds: Set<ObserverFeed>;
  /** The acknowledged stream this task is live on. */
  liveOn?: Stream | undefined;
  /** Refused by an acknowledgement, or its stream failed: it polls from now on. */
  refused: boolean;
  /** The last pushed state delivered, to drop the repeats a new stream opens with. */
  lastSeen?: string | undefined;
}

interface Stream {
  readonly controller: AbortController;
  readonly taskIds: readonly string[];
  id?: number | undefined;
  acked?: ReadonlySet<string> | undefined;
}

/** The tasks of one stream (at most `maxTaskIdsPerStream`), and its serving and opening listen requests. */
interface Group {
  readonly members: Map<string, Member>;
  current?: Stream | undefined;
  opening?: Stream | undefined;
  scheduled: boolean;
  lastOpenAt: number;
}

/**
 * Multiplexes the listen subscriptions of many tasks over as few `subscriptions/listen` streams as the per-stream
 * cap allows. Tasks join with {@link observe} and leave when their observer closes. Joins are batched: the first
 * opens a stream at once (next microtask), later ones wait for the acknowledgement in flight and for the pause
 * between listen requests, then join together. Leaving sends nothing; a stream whose tasks have all left is closed.
 * Notifications are routed by subscription id and task id. A task missing from an acknowledgement, or whose stream
 * fails or ends, polls for the rest of its drive.
 */
export class ListenMultiplexer {
  readonly #options: ListenMultiplexerOptions;
  readonly #groups: Group[] = [];

  constructor(options: ListenMultiplexerOptions) {
    this.#options = options;
  }

  /** Number of listen requests open now (serving or awaiting their acknowledgement). */
  get openStreams(): number {
    let open = 0;
    for (const group of this.#groups) open += (group.current ? 1 : 0) + (group.opening ? 1 : 0);
    return open;
  }

  /** An observer of `taskId` fed by the shared stream; its `close()` leaves it. */
  observe(taskId: string, poll: (signal: AbortSignal) => Promise<DetailedTask>, safetyPollMs: number): TaskObserver {
    const group = this.#groups.find((candidate) => candidate.members.has(taskId)) ?? this.#groupWithRoom();
    const { observer, feed } = queuedObserver({
      poll,
      clock: this.#options.clock,
      safetyPollMs,
      onClose: () => this.#leave(group, taskId, feed),
      // A new stream opens with a burst of current states that may span many reads: the poll due anyway is the
      // catch-up for a server that sends none.
      catchUp: 'scheduled',
    });
    const member = group.members.get(taskId);
    if (member === undefined) {
      group.members.set(taskId, { taskId, feeds: new Set([feed]), refused: false });
      this.#schedule(group);
    } else {
      member.feeds.add(feed);
      if (member.liveOn !== undefined) feed.live(true);
    }
    return observer;
  }

  #groupWithRoom(): Group {
    const found = this.#groups.find((group) => group.members.size < this.#options.maxTaskIdsPerStream);
    if (found !== undefined) return found;
    const group: Group = { members: new Map(), scheduled: false, lastOpenAt: Number.NEGATIVE_INFINITY };
    this.#groups.push(group);
    return group;
  }

  #leave(group: Group, taskId: string, feed: ObserverFeed): void {
    const member = group.members.get(taskId);
    if (member === undefined || !member.feeds.delete(feed) || member.feeds.size > 0) return;
    group.members.delete(taskId);
    if (group.members.size > 0) return;
    group.current?.controller.abort();
    group.opening?.controller.abort();
    group.current = group.opening = undefined;
    this.#groups.splice(this.#groups.indexOf(group), 1);
  }

  /** Flushes the group's joins soon: at once when idle, else after the pending ack and the pause. */
  #schedule(group: Group): void {
    if (group.scheduled || group.opening !== undefined) return;
    group.scheduled = true;
    const { relistenMsPerTask, relistenMaxMs } = this.#options;
    const wait = Math.min(relistenMaxMs, group.members.size * relistenMsPerTask);
    const pause = group.lastOpenAt + wait - this.#options.clock.now();
    const flush = () => {
      group.scheduled = false;
      this.#flush(group);
    };
    if (pause > 0) this.#options.clock.sleep(pause).then(flush, flush);
    else queueMicrotask(flush);
  }

  #flush(group: Group): void {
    if (!this.#groups.includes(group) || group.opening !== undefined) return;
    const taskIds: string[] = [];
    let uncovered = false;
    for (const member of group.members.values()) {
      if (member.refused) continue;
      taskIds.push(member.taskId);
      if (member.liveOn === undefined) uncovered = true;
    }
    if (uncovered) this.#open(group, taskIds);
  }

  #open(group: Group, taskIds: readonly string[]): void {
    const stream: Stream = { controller: new AbortController(), taskIds };
    group.opening = stream;
    group.lastOpenAt = this.#options.clock.now();
    this.#options
      .open(
        { notifications: { taskIds } },
        (notification) => this.#onNotification(group, stream, notification),
        (id) => {
          stream.id = id;
        },
        stream.controller.signal,
      )
      .catch(() => undefined)
      .finally(() => this.#onEnd(group, stream));
  }

  #onNotification(group: Group, stream: Stream, notification: TransportNotification): void {
    if (stream.id === undefined || subscriptionIdOf(notification) !== stream.id) return;
    if (notification.method === 'notifications/subscriptions/acknowledged') {
      if (group.opening === stream) this.#onAck(group, stream, acknowledgedTaskIds(notification));
      return;
    }
    if (notification.method !== 'notifications/tasks' || stream.acked === undefined) return;
    const taskId = notification.params?.taskId;
    const member = typeof taskId === 'string' ? group.members.get(taskId) : undefined;
    if (member === undefined || !stream.acked.has(member.taskId)) return;
    // While the replaced stream is still open both carry the task, and the new one starts with its current state.
    const seen = stateKey(notification.params);
    if (seen === member.lastSeen) return;
    const task = pushedTask(notification);
    if (task === undefined || task.taskId !== member.taskId) return;
    member.lastSeen = seen;
    for (const feed of member.feeds) feed.state(task);
  }

  #onAck(group: Group, stream: Stream, agreed: readonly unknown[]): void {
    const requested = new Set(stream.taskIds);
    const acked = new Set<string>();
    for (const id of agreed) if (typeof id === 'string' && requested.has(id)) acked.add(id);
    stream.acked = acked;
    const replaced = group.current;
    group.current = stream;
    group.opening = undefined;
    for (const taskId of stream.taskIds) {
      const member = group.members.get(taskId);
      if (member === undefined) continue;
      if (acked.has(taskId)) {
        member.refused = false;
        member.liveOn = stream;
        for (const feed of member.feeds) feed.live(true);
      } else {
        member.refused = true;
        member.liveOn = undefined;
        for (const feed of member.feeds) feed.live(false);
      }
    }
    replaced?.controller.abort();
    this.#schedule(group);
  }

  #onEnd(group: Group, stream: Stream): void {
    if (group.opening === stream) group.opening = undefined;
    if (group.current === stream) group.current = undefined;
    for (const taskId of stream.taskIds) {
      const member = group.members.get(taskId);
      if (member === undefined || member.refused) continue;
      // Failed before its ack, or ended while serving (transport dropped, server shut down): poll from now on.
      if (member.liveOn === stream || (member.liveOn === undefined && stream.acked === undefined)) {
        member.refused = true;
        member.liveOn = undefined;
        for (const feed of member.feeds) feed.live(false);
      }
    }
    if (group.opening === undefined && this.#groups.includes(group)) this.#schedule(group);
  }
}

/** What tells two pushed states of one task apart, cheaply, before the full schema check. */
function stateKey(params: TransportNotification['params']): string {
  const requests = params?.inputRequests;
  const keys = requests !== null && typeof requests === 'object' ? Object.keys(requests).join(',') : '';
  return `${String(params?.status)}|${String(params?.lastUpdatedAt)}|${String(params?.statusMessage)}|${keys}`;
}

/** Settings of `tasks.listen`: how the tasks a client drives share listen streams. */
export interface ListenOptions {
  /**
   * At most this many task ids in one `subscriptions/listen` request (keep it at or below what the server
   * acknowledges in one); more tasks in flight share as few more streams as needed. @default 1000
   */
  readonly maxTaskIdsPerStream?: number | undefined;
}

/**
 * The pause between two listen requests of one stream: 0.25 ms per task id it carries, at most 250 ms (reached at
 * 1,000 tasks). Each request makes the server send every task's current state again (a few µs each), while a task
 * that is not live yet when its first poll falls due costs a whole `tasks/get`; servers ask for polls ≥ 1 s apart.
 */
const RELISTEN_PAUSE = { msPerTask: 0.25, maxMs: 250 };

/** The multiplexer `McpClient` uses for `tasks.listen` (`true` or {@link ListenOptions}); undefined when off. */
export function listenMultiplexer(
  listen: boolean | ListenOptions | undefined,
  clock: Clock,
  open: OpenListenStream,
): ListenMultiplexer | undefined {
  if (listen === undefined || listen === false) return undefined;
  const maxTaskIdsPerStream = (listen === true ? undefined : listen.maxTaskIdsPerStream) ?? 1000;
  if (!Number.isInteger(maxTaskIdsPerStream) || maxTaskIdsPerStream < 1) {
    throw new RangeError(`tasks.listen.maxTaskIdsPerStream must be a positive integer, got ${maxTaskIdsPerStream}`);
  }
  return new ListenMultiplexer({
    open,
    clock,
    maxTaskIdsPerStream,
    relistenMsPerTask: RELISTEN_PAUSE.msPerTask,
    relistenMaxMs: RELISTEN_PAUSE.maxMs,
  });
}
