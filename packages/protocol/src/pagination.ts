import { z } from 'zod';
import { RequestParamsSchema, ResultSchema } from './meta.js';

/** An opaque pagination cursor. */
export const CursorSchema = z.string();
/** An opaque pagination cursor. */
export type Cursor = z.infer<typeof CursorSchema>;

/** Params of a list request: the per-request `_meta` and an optional cursor. */
export const PaginatedRequestParamsSchema = RequestParamsSchema.extend({
  /** The `nextCursor` of the previous page; absent for the first page. */
  cursor: CursorSchema.optional(),
});
/** Params of a list request. */
export type PaginatedRequestParams = z.infer<typeof PaginatedRequestParamsSchema>;

/** A page of a list result. */
export const PaginatedResultSchema = ResultSchema.extend({
  /** Opaque cursor for the next page; absent on the last page. */
  nextCursor: CursorSchema.optional(),
});
/** A page of a list result. */
export type PaginatedResult = z.infer<typeof PaginatedResultSchema>;

/** Who may reuse a cached result: only this principal (`private`) or anyone (`public`). */
export const CacheScopeSchema = z.enum(['private', 'public']);
/** A cache scope. */
export type CacheScope = z.infer<typeof CacheScopeSchema>;

/**
 * A result with caching hints: `ttlMs` (how long it stays fresh, integer >= 0) and `cacheScope`. Required on
 * complete results of cacheable methods; unrelated to a task's `ttlMs`.
 */
export const CacheableResultSchema = ResultSchema.extend({
  /** How long the result stays fresh from its receipt, in ms (an integer >= 0; 0 is stale at once). */
  ttlMs: z.int().min(0),
  /**
   * Who may cache it: `public`, any client or shared cache, for any user; `private`, only the requesting user's
   * client (a shared cache must not serve it to another user).
   */
  cacheScope: CacheScopeSchema,
});
/** A result with caching hints. */
export type CacheableResult = z.infer<typeof CacheableResultSchema>;
