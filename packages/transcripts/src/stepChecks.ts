import type { SendStep } from './transcriptSchema.js';
import type { Exchange } from './wire.js';

/** Why an HTTP exchange does not match the recorded status and content type, or undefined when it does. */
export function httpMismatch(expected: SendStep['http'], actual: Exchange['http']): string | undefined {
  if (expected === undefined || actual === undefined) return undefined;
  if (expected.response.status !== actual.status)
    return `HTTP status ${actual.status}, expected ${expected.response.status}`;
  if (expected.response.contentType !== actual.contentType) {
    return `Content-Type ${actual.contentType || 'none'}, expected ${expected.response.contentType}`;
  }
  return undefined;
}

/** Why the expiry check of a task is skipped. */
export function expirySkipReason(due: number | undefined, budgetMs: number): string {
  if (due === undefined) return 'the server reported no createdAt and ttlMs for the task';
  return `the task expires in ${Math.round((due - Date.now()) / 1000)} s, beyond the ${budgetMs / 1000} s budget (--expiry-budget-ms); start the server with short-lived finished tasks to check expiry`;
}

/** The response body without `jsonrpc` and `id` (checked by the transport). */
export function withoutEnvelope(response: Record<string, unknown> | undefined): unknown {
  if (response === undefined) return undefined;
  const { jsonrpc: _jsonrpc, id: _id, ...body } = response;
  return body;
}
