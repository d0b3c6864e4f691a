/**
 * A task id is a durable handle: when the server goes away mid-task, follow it again with exponential backoff and
 * full jitter for a bounded time, saying so, instead of giving up at the first refused connection.
 */
import { TransportError } from '@mcp-tasks/protocol';
import { ConnectionError } from './cliErrors.js';

/** How long to keep trying, and the backoff between tries. */
export interface RetryPolicy {
  /** Total time to keep retrying after the first failure; 0 gives up at once. */
  readonly forMs: number;
  /** @default 500 */
  readonly initialDelayMs?: number;
  /** @default 5000 */
  readonly maxDelayMs?: number;
  /** @default Math.random */
  readonly random?: () => number;
}

/** The delay before retry number `attempt` (0-based): full jitter over an exponentially growing cap. */
export function backoffDelay(attempt: number, policy: RetryPolicy): number {
  const cap = Math.min(policy.maxDelayMs ?? 5000, (policy.initialDelayMs ?? 500) * 2 ** attempt);
  return Math.round((policy.random ?? Math.random)() * cap);
}

/** A failure worth retrying: the server could not be reached or the connection dropped. */
export function isConnectionLoss(error: unknown): boolean {
  return (error instanceof TransportError && error.code !== 'http_status') || error instanceof ConnectionError;
}

/** What the client says when it lost the server and tries again (its own retries, or a WebSocket reconnecting). */
export function retryingLine(cause: string, delayMs: number, leftMs: number): string {
  return `lost the server (${cause}); retrying in ${(delayMs / 1000).toFixed(1)} s, for up to ${Math.ceil(leftMs / 1000)} s more (--retry-for)`;
}

/** Options of {@link retryUntilBack}. */
export interface RetryOptions {
  readonly policy: RetryPolicy;
  /** Whether the thing being followed can be found again (checked at each failure). */
  readonly resumable: () => boolean;
  readonly say: (text: string) => void;
  readonly signal: AbortSignal;
}

/**
 * Runs `attempt` (which resolves with an outcome, errors included as `{ kind: 'error' }`) and, while it ends in a
 * connection loss and `resumable()` holds, runs it again after a backoff, until `policy.forMs` has passed since
 * the first loss. Resolves with the last outcome.
 */
export async function retryUntilBack<T extends { kind: string; error?: unknown }>(
  attempt: () => Promise<T>,
  options: RetryOptions,
): Promise<T> {
  const { policy } = options;
  let outcome = await attempt();
  let firstLossAt: number | undefined;
  for (let tries = 0; ; tries++) {
    if (outcome.kind !== 'error' || !isConnectionLoss(outcome.error) || !options.resumable()) return outcome;
    firstLossAt ??= Date.now();
    const left = firstLossAt + policy.forMs - Date.now();
    if (left <= 0 || options.signal.aborted) return outcome;
    const delay = Math.min(left, backoffDelay(tries, policy));
    options.say(retryingLine((outcome.error as Error).message, delay, left));
    await new Promise((resolve) => setTimeout(resolve, delay));
    outcome = await attempt();
  }
}
