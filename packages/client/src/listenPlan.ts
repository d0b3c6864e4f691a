/**
 * Which listen requests carry the tasks waiting to join, and which open streams they fold in, so the number of
 * streams stays bounded while each request carries only what is new (plus the few tasks of the streams it merges).
 */

/** One listen request to send: the task ids it carries, and the streams it replaces once acknowledged. */
export interface PlannedRequest<S> {
  readonly taskIds: string[];
  readonly merges: S[];
}

/** How the plan sees an open stream: which of its tasks are still live on it. */
export interface PlannedStream {
  readonly live: ReadonlySet<string>;
}

/** Bounds of {@link planJoins}. */
export interface PlanLimits {
  readonly maxTaskIdsPerStream: number;
  readonly maxStreams: number;
}

/**
 * Splits `joining` into requests of at most `maxTaskIdsPerStream` ids, then, while the open streams plus the new
 * requests exceed `maxStreams`, folds the open stream with the fewest live tasks into the request with the most
 * room. A stream that does not fit under the per-stream cap is not folded (the bound then yields to the cap), so
 * the cost of a request stays the new ids plus the smallest streams' live ids, never the whole set.
 */
export function planJoins<S extends PlannedStream>(
  joining: readonly string[],
  open: readonly S[],
  limits: PlanLimits,
): PlannedRequest<S>[] {
  const cap = limits.maxTaskIdsPerStream;
  const requests: PlannedRequest<S>[] = [];
  for (let at = 0; at < joining.length; at += cap) requests.push({ taskIds: joining.slice(at, at + cap), merges: [] });
  let excess = open.length + requests.length - limits.maxStreams;
  if (requests.length === 0 || excess <= 0) return requests;
  const smallestFirst = [...open].sort((a, b) => a.live.size - b.live.size);
  for (const stream of smallestFirst) {
    if (excess <= 0) break;
    const target = requests.reduce((roomiest, request) =>
      request.taskIds.length < roomiest.taskIds.length ? request : roomiest,
    );
    // Sorted smallest first: when this one does not fit, no later one does.
    if (target.taskIds.length + stream.live.size > cap) break;
    for (const taskId of stream.live) target.taskIds.push(taskId);
    target.merges.push(stream);
    excess--;
  }
  return requests;
}
