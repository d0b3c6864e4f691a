import type pg from 'pg';
import type { PostgresTaskStoreOptions } from './postgresTaskStoreOptions.js';
import type { Statements } from './schema.js';

/** The `pg` client config of the store's options: the caller's config with the store's timeouts. */
export function clientConfigOf(options: PostgresTaskStoreOptions, connectTimeoutMs: number): pg.ClientConfig {
  return {
    ...options.clientConfig,
    ...(options.connectionString === undefined ? {} : { connectionString: options.connectionString }),
    statement_timeout: options.statementTimeoutMs ?? 5_000,
    connectionTimeoutMillis: connectTimeoutMs,
  };
}

/**
 * Names for the parameterised statements (`$1`…), prepared once per connection by `pg` and then only bound and
 * executed: the database parses and plans a `get` once per connection instead of on every call. Empty when
 * `enabled` is false (for poolers that cannot keep prepared statements).
 */
export function preparedNames(sql: Statements, table: string, enabled: boolean): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  if (!enabled) return names;
  for (const [key, text] of Object.entries(sql)) {
    if (typeof text === 'string' && text.includes('$1')) names.set(text, `${table}_${key}`);
  }
  return names;
}

/** `host:port/database` of a connection config, for error messages (never the password). */
export function describeTarget(config: pg.ClientConfig): string {
  if (config.connectionString !== undefined) {
    try {
      const url = new URL(config.connectionString);
      return `${url.hostname}:${url.port || 5432}${url.pathname}`;
    } catch {
      return 'the configured address';
    }
  }
  return `${config.host ?? 'localhost'}:${config.port ?? 5432}/${config.database ?? ''}`;
}
