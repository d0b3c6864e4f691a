import { TaskStoreError } from './taskStoreError.js';

/** Where a page of `TaskStore.list` ends: the creation time and id of its last task (the listing's sort key). */
export interface TaskListPosition {
  /** ISO 8601, as in the record. */
  readonly createdAt: string;
  /** The id of that task; breaks ties between tasks created in the same millisecond. */
  readonly taskId: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Base64url without padding; runtime-neutral (no `Buffer`). */
function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/**
 * The opaque cursor for the page after `position`. Every store encodes cursors this way, so a cursor stays valid
 * for as long as its store keeps the same order; callers must treat it as opaque.
 */
export function encodeListCursor(position: TaskListPosition): string {
  return toBase64Url(encoder.encode(JSON.stringify([position.createdAt, position.taskId])));
}

/** Reads a cursor made by {@link encodeListCursor}; anything else rejects with `TaskStoreError` `invalid_cursor`. */
export function decodeListCursor(cursor: string): TaskListPosition {
  const invalid = () => new TaskStoreError('invalid_cursor', 'Invalid cursor: not one this store handed out');
  if (!BASE64URL.test(cursor)) throw invalid();
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(fromBase64Url(cursor)));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(value) || value.length !== 2) throw invalid();
  const [createdAt, taskId] = value as unknown[];
  if (typeof createdAt !== 'string' || typeof taskId !== 'string' || Number.isNaN(Date.parse(createdAt))) {
    throw invalid();
  }
  return { createdAt, taskId };
}

/** Orders tasks as every listing does: by creation time, then by id (ids are unique, so the order is total). */
export function compareListPosition(a: TaskListPosition, b: TaskListPosition): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  if (a.taskId === b.taskId) return 0;
  return a.taskId < b.taskId ? -1 : 1;
}

/** Checks `limit` of a list call: a positive integer. */
export function checkListLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new TaskStoreError('invalid_argument', `limit must be a positive integer, got ${limit}`);
  }
}
