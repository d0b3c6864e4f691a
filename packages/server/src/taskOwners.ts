import type { RequestContext } from '@mcp-tasks/protocol';

/** The owner key for tasks of requests without a principal (unauthenticated transports share one owner). */
const ANONYMOUS_OWNER = '\u0000anonymous';

/** The task owner key of a request's principal. */
export function ownerOf(context: RequestContext): string {
  return context.principal === undefined ? ANONYMOUS_OWNER : `user:${context.principal}`;
}

/**
 * The owner key of a 2025-era request: its principal's, or without one its session's, so that what one
 * unauthenticated session creates (tasks, MRTR state) is invisible to every other session.
 */
export function legacyOwnerOf(context: RequestContext): string {
  if (context.principal !== undefined || context.session === undefined) return ownerOf(context);
  return `\u0000session:${context.session.id}`;
}
