/**
 * Task states pushed by the server (`notifications/tasks` on a `subscriptions/listen` stream), with polling
 * as the fallback whenever the stream is not live. Both paths yield the same `DetailedTask` states.
 */
import {
  type DetailedTask,
  META,
  TaskStatusNotificationParamsSchema,
  type TransportNotification,
} from '@mcp-tasks/protocol';
import type { Clock } from './clock.js';
import type { TaskObserver } from './taskDriver.js';

/** Opens the listen stream; settles when it ends (server closed it, transport dropped, or `signal` aborted). */
export type OpenListenStream = (
  params: Readonly<Record<string, unknown>>,
  onNotification: (notification: TransportNotification) => void,
  onSend: (requestId: number) => void,
  signal: AbortSignal,
) => Promise<unknown>;

/** Options of {@link listeningObserver}. */
export interface ListeningObserverOptions {
  /** The task to follow. */
  readonly taskId: string;
  /** Opens the task's listen stream (`subscriptions/listen` for this task). */
  readonly open: OpenListenStream;
  /** One `tasks/get`. */
  readonly poll: (signal: AbortSignal) => Promise<DetailedTask>;
  /** The clock for waits and the TTL check. */
  readonly clock: Clock;
  /** While the stream is live, a safety poll still runs after this long without a notification. */
  readonly safetyPollMs: number;
}

type Item = { readonly kind: 'state'; readonly task: DetailedTask } | { readonly kind: 'poll_now' };

/**
 * An observer that subscribes to `taskId` with `subscriptions/listen` (`notifications.taskIds`). It accepts only
 * notifications whose `_meta` subscription id is the listen request's id and whose task is `taskId`. Until the
 * acknowledgement lists `taskId`, and again after the stream ends or fails, it polls on the usual schedule; on
 * the acknowledgement it polls once at once, to catch changes made before the subscription took effect.
 */
export function listeningObserver(options: ListeningObserverOptions): TaskObserver {
  const queue: Item[] = [];
  let wake: (() => void) | undefined;
  let live = false;
  let subscriptionId: number | undefined;
  const stream = new AbortController();
  const push = (item: Item): void => {
    queue.push(item);
    wake?.();
  };
  const onNotification = (notification: TransportNotification): void => {
    const params = notification.params;
    const meta = params?._meta as Record<string, unknown> | undefined;
    if (subscriptionId === undefined || meta?.[META.subscriptionId] !== subscriptionId) return;
    if (notification.method === 'notifications/subscriptions/acknowledged') {
      const agreed = (params?.notifications as { taskIds?: unknown } | undefined)?.taskIds;
      if (Array.isArray(agreed) && agreed.includes(options.taskId)) {
        live = true;
        push({ kind: 'poll_now' });
      } else {
        stream.abort();
      }
      return;
    }
    if (notification.method !== 'notifications/tasks') return;
    const parsed = TaskStatusNotificationParamsSchema.safeParse(params);
    // A malformed push is ignored: the next poll reads the same state from the source of truth.
    if (!parsed.success || parsed.data.taskId !== options.taskId) return;
    const { _meta: _dropped, ...task } = parsed.data;
    push({ kind: 'state', task: task as DetailedTask });
  };
  options
    .open(
      { notifications: { taskIds: [options.taskId] } },
      onNotification,
      (id) => {
        subscriptionId = id;
      },
      stream.signal,
    )
    .catch(() => undefined)
    .finally(() => {
      live = false;
      wake?.();
    });

  const waitForItem = (ms: number, signal: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const timer = new AbortController();
      const settle = (): void => {
        wake = undefined;
        timer.abort();
        signal.removeEventListener('abort', onAbort);
      };
      const done = (): void => {
        settle();
        resolve();
      };
      // Rejects without resolving first: a resolved wait would read as "poll now" and send a spurious tasks/get.
      const onAbort = (): void => {
        settle();
        reject(signal.reason);
      };
      wake = done;
      signal.addEventListener('abort', onAbort, { once: true });
      options.clock.sleep(ms, timer.signal).then(done, () => undefined);
    });

  return {
    async next(delayMs, signal) {
      signal.throwIfAborted();
      if (queue.length === 0) await waitForItem(live ? options.safetyPollMs : delayMs, signal);
      const item = queue.shift();
      if (item?.kind === 'state') return item.task;
      return options.poll(signal);
    },
    close() {
      stream.abort();
    },
  };
}
