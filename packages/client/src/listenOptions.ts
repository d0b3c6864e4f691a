/** `tasks.listen`: its settings, and the multiplexer they make. */
import type { Clock } from './clock.js';
import { ListenMultiplexer } from './listenMultiplexer.js';
import type { OpenListenStream } from './taskListener.js';

/** Settings of `tasks.listen`: how the tasks a client drives share listen streams. */
export interface ListenOptions {
  /**
   * At most this many task ids in one `subscriptions/listen` request (keep it at or below what the server
   * acknowledges in one). @default 1000
   */
  readonly maxTaskIdsPerStream?: number | undefined;
  /**
   * The listen streams the client keeps open at most. Tasks join through a new request carrying only their ids;
   * once this many streams are open, the next request also carries the live tasks of the streams with the fewest,
   * which close once it is acknowledged. Exceeded only when the tasks in flight need more streams than
   * `maxTaskIdsPerStream` allows, and by one while a stream is being replaced: keep it below what the server allows
   * per connection (mcp-tasks servers allow 32 listen streams per WebSocket or stdio connection). @default 8
   */
  readonly maxStreams?: number | undefined;
}

/**
 * The pauses between two rounds of listen requests. Each request is an HTTP request (or a message) of its own:
 * batching joins for 20 ms keeps them to 50 a second however fast tasks start. Once the streams are at their bound,
 * a round re-lists the smallest stream's live tasks too, and waits 2 ms per such task (at most 250 ms), so the
 * server re-sends at most ~500 states a second. Either way a task becomes live well before its first poll falls due
 * (servers ask for polls ≥ 1 s apart).
 */
const PAUSES = { joinIntervalMs: 20, mergePauseMsPerTask: 2, mergePauseMaxMs: 250 };

/** The multiplexer `McpClient` uses for `tasks.listen` (`true` or {@link ListenOptions}); undefined when off. */
export function listenMultiplexer(
  listen: boolean | ListenOptions | undefined,
  clock: Clock,
  open: OpenListenStream,
): ListenMultiplexer | undefined {
  if (listen === undefined || listen === false) return undefined;
  const options = listen === true ? {} : listen;
  return new ListenMultiplexer({
    open,
    clock,
    maxTaskIdsPerStream: positiveInteger('maxTaskIdsPerStream', options.maxTaskIdsPerStream ?? 1000),
    maxStreams: positiveInteger('maxStreams', options.maxStreams ?? 8),
    ...PAUSES,
  });
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`tasks.listen.${name} must be a positive integer, got ${value}`);
  }
  return value;
}
