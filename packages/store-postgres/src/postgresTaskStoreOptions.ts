import type { RandomFill, TaskStoreLimits } from '@mcp-tasks/task-store';
import type pg from 'pg';

/** Options of `PostgresTaskStore`; every one but the connection has a default. */
export interface PostgresTaskStoreOptions extends TaskStoreLimits {
  /** `postgres://user:pass@host:port/db`. Required unless `pool` is given (the listening connection uses it too). */
  readonly connectionString?: string;
  /** Further `pg` client settings (ssl, …) for the pool and the listening connection. */
  readonly clientConfig?: pg.ClientConfig;
  /** Table (and channel, sequence) name, a lower-case SQL identifier. @default 'mcp_tasks' */
  readonly table?: string;
  /** This instance's id in notifications, so it skips its own. @default a random id */
  readonly instanceId?: string;
  /** Pool size. @default 10 */
  readonly maxConnections?: number;
  /**
   * Prepare the store's parameterised statements once per connection (named statements), so the database parses
   * and plans each only once per connection. Turn it off behind a pooler that does not keep prepared statements
   * across transactions (PgBouncer before 1.21 in transaction mode). @default true
   */
  readonly preparedStatements?: boolean;
  /**
   * Serve concurrent `get`s with one statement (`task_id = ANY($1)`) instead of one each: a round trip costs the
   * client and the database far more than a row, so a server with many callers polling tasks does several times
   * more gets per CPU second. A lone get is not delayed. @default true
   */
  readonly coalesceGets?: boolean;
  /**
   * Most task records this instance keeps in memory so that `update` (every transition `TaskOperations` makes) can
   * write without reading the task first: the records of the tasks it created or wrote last (or whose current
   * record it read after losing a race), refreshed by its change feed and dropped once the task finishes, expires
   * or parks (a durable task waiting for input); the least recently written go first. A transition of a task this instance wrote last then costs one
   * round trip instead of two; a remembered record that is stale (another instance wrote the task since) only makes
   * the write lose and read the task, so the answer is always the same. The cost is memory: about the size of a
   * record (1 KB or more) per entry. 0 turns it off. @default 1_024
   */
  readonly updateCacheSize?: number;
  /** A statement running longer is cancelled and the call rejects (`TaskStoreUnavailableError`). @default 5_000 */
  readonly statementTimeoutMs?: number;
  /**
   * How long opening one connection to the server may take (TCP, TLS, authentication) before the call rejects
   * (`TaskStoreUnavailableError`). It does not bound the wait for a free pooled connection: see
   * `poolWaitTimeoutMs`. @default 5_000
   */
  readonly connectTimeoutMs?: number;
  /**
   * How long a call may wait for a free pooled connection while all `maxConnections` are in use. A pool busy with a
   * burst of calls is not a database that is down, so this is longer than `connectTimeoutMs`; a call that waits
   * longer rejects with a `TaskStoreUnavailableError` saying the pool was busy. @default 30_000
   */
  readonly poolWaitTimeoutMs?: number;
  /** Source of random bytes for task ids. @default globalThis.crypto.getRandomValues */
  readonly randomFill?: RandomFill;
  /** Receives exceptions thrown by change-feed listeners. @default console.error */
  readonly onListenerError?: (error: unknown) => void;
  /** Receives background errors (lost listening connection, failed catch-up). @default console.error */
  readonly onError?: (error: unknown) => void;
}
