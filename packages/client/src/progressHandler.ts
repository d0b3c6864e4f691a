/**
 * Request-scoped progress: route `notifications/progress` carrying one request's `progressToken` to its listener.
 */
import { ProgressNotificationSchema, type ProgressToken, type TransportNotification } from '@mcp-tasks/protocol';

/** One progress update as the server reported it (`progress` should increase; `total` may be unknown). */
export interface Progress {
  /** Progress so far; increases with every update. */
  readonly progress: number;
  /** The total the progress counts towards, when the server knows it. */
  readonly total?: number;
  /** A human-readable note on the progress, if the server sent one. */
  readonly message?: string;
}

/** Sees a request's progress updates in arrival order. Exceptions it throws are ignored. */
export type ProgressListener = (progress: Progress) => void;

/**
 * A per-request `onNotification` that passes every well-formed `notifications/progress` for `token` to
 * `listener`, in order. Other notifications, other tokens and malformed progress are ignored: progress is
 * advisory and must never fail the request it describes.
 */
export function progressHandler(
  token: ProgressToken,
  listener: ProgressListener,
): (notification: TransportNotification) => void {
  return (notification) => {
    if (notification.method !== 'notifications/progress') return;
    const parsed = ProgressNotificationSchema.safeParse(notification);
    if (!parsed.success || parsed.data.params.progressToken !== token) return;
    const { progress, total, message } = parsed.data.params;
    try {
      listener({
        progress,
        ...(total === undefined ? {} : { total }),
        ...(message === undefined ? {} : { message }),
      });
    } catch {
      // A progress bar must not be able to break the call it observes.
    }
  };
}
