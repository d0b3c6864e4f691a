import { TaskStoreError } from './taskStoreError.js';

/** Validates a ttl against the store maximum: a non-negative integer or `null`, and `null` only without a maximum. */
export function checkTtl(ttlMs: number | null, maxTtlMs: number | null): number | null {
  if (ttlMs !== null && !(Number.isSafeInteger(ttlMs) && ttlMs >= 0)) {
    throw new TaskStoreError('invalid_argument', `ttlMs must be a non-negative integer or null, got ${ttlMs}`);
  }
  if (maxTtlMs !== null && (ttlMs === null || ttlMs > maxTtlMs)) {
    throw new TaskStoreError('ttl_limit', `ttlMs ${ttlMs} exceeds the maximum of ${maxTtlMs} ms`);
  }
  return ttlMs;
}

/** Validates a polling interval: absent, or a non-negative integer. */
export function checkInterval(pollIntervalMs: number | undefined): number | undefined {
  if (pollIntervalMs !== undefined && !(Number.isSafeInteger(pollIntervalMs) && pollIntervalMs >= 0)) {
    throw new TaskStoreError(
      'invalid_argument',
      `pollIntervalMs must be a non-negative integer, got ${pollIntervalMs}`,
    );
  }
  return pollIntervalMs;
}

/** The later of two ISO 8601 strings of one format (they compare in time order); a clock stepping back is ignored. */
export function laterIso(a: string, b: string): string {
  return a < b ? b : a;
}
