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
import { queuedObserver } from './observerQueue.js';
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

/** The subscription id a listen-stream notification carries in `_meta`, if any. */
export function subscriptionIdOf(notification: TransportNotification): unknown {
  const meta = notification.params?._meta as Record<string, unknown> | undefined;
  return meta?.[META.subscriptionId];
}

/** The task ids an acknowledgement lists (`notifications.taskIds`); empty when it lists none. */
export function acknowledgedTaskIds(notification: TransportNotification): readonly unknown[] {
  const agreed = (notification.params?.notifications as { taskIds?: unknown } | undefined)?.taskIds;
  return Array.isArray(agreed) ? agreed : [];
}

/**
 * The task state a `notifications/tasks` carries, without its `_meta`; undefined when malformed (ignored: the
 * next poll reads the same state from the source of truth).
 */
export function pushedTask(notification: TransportNotification): DetailedTask | undefined {
  const parsed = TaskStatusNotificationParamsSchema.safeParse(notification.params);
  if (!parsed.success) return undefined;
  const { _meta: _dropped, ...task } = parsed.data;
  return task as DetailedTask;
}

/**
 * An observer that subscribes to `taskId` with its own `subscriptions/listen` (`notifications.taskIds`). It
 * accepts only notifications whose `_meta` subscription id is the listen request's id and whose task is
 * `taskId`. Until the acknowledgement lists `taskId`, and again after the stream ends or fails, it polls on the
 * usual schedule; on the acknowledgement it polls once at once (unless a pushed state arrives first), to catch
 * changes made before the subscription took effect. `McpClient` shares one stream among all the tasks it drives
 * instead; this is for callers that drive single tasks themselves.
 */
export function listeningObserver(options: ListeningObserverOptions): TaskObserver {
  let subscriptionId: number | undefined;
  const stream = new AbortController();
  const { observer, feed } = queuedObserver({
    poll: options.poll,
    clock: options.clock,
    safetyPollMs: options.safetyPollMs,
    onClose: () => stream.abort(),
    catchUp: 'now',
  });
  const onNotification = (notification: TransportNotification): void => {
    if (subscriptionId === undefined || subscriptionIdOf(notification) !== subscriptionId) return;
    if (notification.method === 'notifications/subscriptions/acknowledged') {
      if (acknowledgedTaskIds(notification).includes(options.taskId)) feed.live(true);
      else stream.abort();
      return;
    }
    if (notification.method !== 'notifications/tasks') return;
    const task = pushedTask(notification);
    if (task?.taskId === options.taskId) feed.state(task);
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
    .finally(() => feed.live(false));
  return observer;
}
