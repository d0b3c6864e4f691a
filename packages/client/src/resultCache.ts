/**
 * Client-side cache for cacheable results (`server/discover`, the list methods, `resources/read`), following the
 * server's `ttlMs` hint and invalidated by list-changed and resource-updated notifications.
 */
import { isRecord, type TransportNotification } from '@mcp-tasks/protocol';
import type { Clock } from './clock.js';
import type { RawResult } from './rpcClient.js';

/** The methods whose `complete` results carry caching hints. `tasks/get` is not one of them. */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

const INVALIDATES: Readonly<Record<string, readonly string[]>> = {
  'notifications/tools/list_changed': ['tools/list'],
  'notifications/prompts/list_changed': ['prompts/list'],
  'notifications/resources/list_changed': ['resources/list', 'resources/templates/list'],
};

interface Entry {
  readonly method: string;
  readonly uri: unknown;
  readonly result: RawResult;
  readonly freshUntil: number;
}

/**
 * A per-client cache. One `McpClient` is one authorization context, so `private` and `public` results are both
 * cached here and never shared with another client. The key is the method plus every param except `_meta`, so a
 * different cursor or uri is a different entry. Only results with a positive `ttlMs` are stored (absent or
 * negative means 0, immediately stale). Callers must not store results of MRTR retries (they depend on
 * `inputResponses`/`requestState`, which are not part of the key).
 */
export class ResultCache {
  readonly #clock: Clock;
  readonly #entries = new Map<string, Entry>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** The fresh cached result for this request, if any. */
  get(method: string, params: Readonly<Record<string, unknown>>): RawResult | undefined {
    const key = cacheKey(method, params);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (this.#clock.now() < entry.freshUntil) return entry.result;
    this.#entries.delete(key);
    return undefined;
  }

  /** Stores `result` for this request if the method is cacheable and `result.ttlMs` is positive. */
  set(method: string, params: Readonly<Record<string, unknown>>, result: RawResult): void {
    if (!CACHEABLE_METHODS.has(method)) return;
    const ttlMs = typeof result.ttlMs === 'number' && result.ttlMs > 0 ? result.ttlMs : 0;
    if (ttlMs === 0) return;
    const freshUntil = this.#clock.now() + ttlMs;
    this.#entries.set(cacheKey(method, params), { method, uri: params.uri, result, freshUntil });
  }

  /** Drops what `notification` says changed: a list-changed kind, or one resource's contents. */
  invalidate(notification: TransportNotification): void {
    const methods = INVALIDATES[notification.method];
    const uri = notification.method === 'notifications/resources/updated' ? notification.params?.uri : undefined;
    for (const [key, entry] of this.#entries) {
      if (
        methods?.includes(entry.method) ||
        (uri !== undefined && entry.method === 'resources/read' && entry.uri === uri)
      ) {
        this.#entries.delete(key);
      }
    }
  }

  /** Drops every entry of `method` (e.g. all pages of a list whose cursor the server rejected). */
  invalidateMethod(method: string): void {
    for (const [key, entry] of this.#entries) if (entry.method === method) this.#entries.delete(key);
  }

  /** Drops everything. */
  clear(): void {
    this.#entries.clear();
  }
}

/**
 * Fills in caching hints the way the caching rules tell a client to read them, so results from servers that
 * omit them still validate: an absent or negative `ttlMs` means 0 (immediately stale), and an absent `cacheScope`
 * is read as `private`, the scope that shares least. Non-cacheable methods are returned unchanged.
 */
export function normaliseCacheHints(method: string, result: RawResult): RawResult {
  if (!CACHEABLE_METHODS.has(method)) return result;
  const raw = result.ttlMs;
  // Anything else that is not a non-negative integer is left alone for schema validation to reject.
  const ttlMs = raw === undefined || (typeof raw === 'number' && raw < 0) ? 0 : raw;
  if (ttlMs === result.ttlMs && result.cacheScope !== undefined) return result;
  return { ...result, ttlMs, cacheScope: result.cacheScope ?? 'private' };
}

function cacheKey(method: string, params: Readonly<Record<string, unknown>>): string {
  const { _meta: _ignored, ...rest } = params;
  return `${method} ${stableStringify(rest)}`;
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (!isRecord(value)) return JSON.stringify(value) ?? 'null';
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify(value[k])}`).join(',')}}`;
}
