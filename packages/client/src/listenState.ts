/** The state the listen multiplexer keeps per task and per stream. */
import type { TransportNotification } from '@mcp-tasks/protocol';
import type { ObserverFeed } from './observerQueue.js';

/** One task listening through the multiplexer. */
export interface ListenMember {
  readonly taskId: string;
  /** One per drive of this task (the same task may be driven twice at once, e.g. resumed while driven). */
  readonly feeds: Set<ObserverFeed>;
  /** The acknowledged stream this task is live on. */
  liveOn?: ListenStream | undefined;
  /** Refused by an acknowledgement, or its streams kept failing: it polls from now on. */
  refused: boolean;
  /**
   * How many streams in a row ended under this task soon after their acknowledgement, or failed before it while
   * the task was listening again.
   */
  quickEnds: number;
  /** It was live on an acknowledged stream once: a later listen request that fails may be the server restarting. */
  wasLive: boolean;
  /** It listens again after its next successful poll (its listen request failed; the server may be back by then). */
  relisten: boolean;
  /** The last pushed state delivered, to drop the repeats a replacing stream opens with. */
  lastSeen?: string | undefined;
}

/** One `subscriptions/listen` request and what it carries. */
export interface ListenStream {
  readonly controller: AbortController;
  readonly taskIds: readonly string[];
  /** The streams this one replaces once acknowledged (emptied then, so no chain of closed streams is kept). */
  merges: readonly ListenStream[];
  /** The tasks live on this stream now. */
  readonly live: Set<string>;
  id?: number | undefined;
  acked?: ReadonlySet<string> | undefined;
  /** When the acknowledgement arrived (the clock's time). */
  ackedAt?: number | undefined;
  /** An opening request that will replace this stream. */
  replacedBy?: ListenStream | undefined;
}

/** What tells two pushed states of one task apart, cheaply, before the full schema check. */
export function stateKey(params: TransportNotification['params']): string {
  const requests = params?.inputRequests;
  const keys = requests !== null && typeof requests === 'object' ? Object.keys(requests).join(',') : '';
  return `${String(params?.status)}|${String(params?.lastUpdatedAt)}|${String(params?.statusMessage)}|${keys}`;
}
