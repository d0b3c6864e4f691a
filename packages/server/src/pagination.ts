import { invalidParams } from './errors.js';

/** One page of a list plus the cursor for the next one (absent on the last page). */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string;
}

const PREFIX = 'mcp-tasks:';

function encodeCursor(offset: number): string {
  return btoa(`${PREFIX}${offset}`);
}

function decodeCursor(cursor: unknown): number {
  if (typeof cursor !== 'string') throw invalidParams('Invalid params: cursor must be a string');
  let decoded: string;
  try {
    decoded = atob(cursor);
  } catch {
    throw invalidParams('Invalid params: unknown cursor');
  }
  const offset = decoded.startsWith(PREFIX) ? Number(decoded.slice(PREFIX.length)) : Number.NaN;
  if (!Number.isSafeInteger(offset) || offset < 0) throw invalidParams('Invalid params: unknown cursor');
  return offset;
}

/**
 * Slices `items` at an opaque cursor. Cursors encode an offset into the registration order, so paging is
 * deterministic while the list is unchanged; a cursor past the end yields an empty last page. A cursor this server
 * did not issue is `-32602`.
 */
export function paginate<T>(items: readonly T[], cursor: unknown, pageSize: number): Page<T> {
  const offset = cursor === undefined ? 0 : decodeCursor(cursor);
  const end = offset + pageSize;
  const page = items.slice(offset, end);
  return end < items.length ? { items: page, nextCursor: encodeCursor(end) } : { items: page };
}
