import {
  type ClaimOptions,
  type CreateTaskOptions,
  checkListLimit,
  createTaskIdGenerator,
  type DurableTaskStore,
  decodeListCursor,
  encodeListCursor,
  type ListTasksOptions,
  measureStep,
  type RecordStepInput,
  type RecordStepResult,
  type StepRecord,
  type SwapResult,
  type TaskEvent,
  type TaskListener,
  type TaskOwner,
  type TaskPage,
  type TaskRecord,
  TaskStoreError,
  taskLimitReached,
  type Unsubscribe,
} from '@mcp-tasks/task-store';
import { newTask } from '@mcp-tasks/task-store/transitions';
import type pg from 'pg';
import { ChangeListener } from './changeListener.js';
import { changeSourceOf } from './changeSource.js';
import { clientConfigOf, describeTarget, preparedNames } from './connectionConfig.js';
import { DurableQueries } from './durableQueries.js';
import { GetBatcher } from './getBatcher.js';
import { insertUnderLimit, type OwnerLimits } from './insertUnderLimit.js';
import { migrateWithRetry } from './migrateWithRetry.js';
import { encodeText } from './nulSafe.js';
import { OpenClients } from './openClients.js';
import { PostgresChangeFeed } from './postgresChangeFeed.js';
import type { PostgresTaskStoreOptions } from './postgresTaskStoreOptions.js';
import { RecordCache } from './recordCache.js';
import { parseRecord, writeValues } from './rows.js';
import { MAX_ID_AND_OWNER_BYTES, type Statements, statementsFor } from './schema.js';
import { StatementRunner } from './statementRunner.js';
import { createStorePool } from './storePool.js';
import { SwapWriter } from './swapWriter.js';
import { mapDatabaseError } from './unavailable.js';

const byteLength = (text: string) => new TextEncoder().encode(text).length;

/**
 * A `TaskStore` on PostgreSQL, shared by any number of server instances: one table (created on first use by an
 * idempotent migration), the record as `jsonb`, every transition a conditional `UPDATE … WHERE version = $n`, and
 * a change feed over `LISTEN/NOTIFY` that reaches every instance. Nothing lives only in this process: a restart
 * or a second instance sees every task. Call `expireDue` and `lapsedLeases` periodically (the server's lease
 * keeper does); any number of instances may sweep at once.
 *
 * When the database cannot be reached, calls reject with `TaskStoreUnavailableError` (`-32603` with a message
 * naming the database) and the store keeps trying on later calls; it never throws asynchronously.
 */
export class PostgresTaskStore implements DurableTaskStore {
  /**
   * This instance's id in change notifications (`instanceId` option, or a random `store-…` id), so it skips its own.
   */
  readonly instanceId: string;
  readonly #pool: pg.Pool;
  readonly #poolClients = new OpenClients();
  readonly #sql: Statements;
  readonly #runner: StatementRunner;
  readonly #durable: DurableQueries;
  readonly #gets: GetBatcher;
  readonly #cache: RecordCache;
  readonly #writer: SwapWriter;
  readonly #ownerLimits: OwnerLimits;
  readonly #feed: PostgresChangeFeed;
  readonly #listener: ChangeListener;
  readonly #newId: () => string;
  readonly #maxTtlMs: number | null;
  readonly #where: string;
  readonly #poolWaitTimeoutMs: number;
  #migrated: Promise<void> | undefined;
  #listening: Promise<void> | undefined;
  #closed = false;

  /**
   * Creates the store without connecting: the pool connects, and the table is created if missing, on first use. Throws
   * `TypeError` when neither `connectionString` nor `clientConfig` is given, or `updateCacheSize` is not a
   * non-negative integer.
   */
  constructor(options: PostgresTaskStoreOptions) {
    if (options.connectionString === undefined && options.clientConfig === undefined) {
      throw new TypeError('PostgresTaskStore needs a connectionString (or clientConfig)');
    }
    const connectTimeoutMs = options.connectTimeoutMs ?? 5_000;
    const config = clientConfigOf(options, connectTimeoutMs);
    this.#poolWaitTimeoutMs = options.poolWaitTimeoutMs ?? 30_000;
    this.#where = describeTarget(config);
    this.#sql = statementsFor(options.table ?? 'mcp_tasks');
    this.#newId = createTaskIdGenerator(options.randomFill);
    this.instanceId = options.instanceId ?? `store-${this.#newId()}`;
    this.#maxTtlMs = options.maxTtlMs ?? null;
    const onError = options.onError ?? ((error: unknown) => console.error('PostgresTaskStore:', error));
    const max = options.maxConnections ?? 10;
    this.#pool = createStorePool(config, { max, connectTimeoutMs, poolWaitTimeoutMs: this.#poolWaitTimeoutMs });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    this.#pool.on('error', onError);
    this.#pool.on('connect', (client) => this.#poolClients.track(client));
    const prepared = preparedNames(this.#sql, options.table ?? 'mcp_tasks', options.preparedStatements ?? true);
    this.#runner = new StatementRunner(this.#pool, prepared, this.#where, this.#poolWaitTimeoutMs);
    const one = async (id: string, by: string) => (await this.#runner.records(this.#sql.get, [id, by]))[0];
    const many = (ids: string[], owners: string[]) => this.#runner.run(this.#sql.getBatch, [ids, owners]);
    this.#gets = new GetBatcher({ one, many }, { maxInFlight: max, coalesce: options.coalesceGets ?? true });
    this.#ownerLimits = {
      maxTasksPerOwner: options.maxTasksPerOwner ?? Number.POSITIVE_INFINITY,
      maxFinishedTasksPerOwner: options.maxFinishedTasksPerOwner ?? Number.POSITIVE_INFINITY,
      mapError: (error) => this.#runner.mapError(error),
    };
    this.#feed = new PostgresChangeFeed(
      changeSourceOf(this.#runner, this.#sql, this.instanceId),
      options.onListenerError ?? ((error) => console.error('TaskStore listener:', error)),
      onError,
    );
    this.#listener = new ChangeListener(config, this.#sql.channel, {
      onNotification: (payload) => this.#feed.notified(payload),
      onReconnected: () => this.#feed.catchUp(),
      onError,
    });
    this.#durable = new DurableQueries(this.#runner, this.#sql, this.#feed, this.instanceId, options);
    this.#cache = new RecordCache(options.updateCacheSize ?? 1_024);
    // Other instances' writes refresh the records held (the feed fetches them only while someone watches).
    if (options.updateCacheSize !== 0) this.#feed.add((event: TaskEvent) => this.#cache.observe(event));
    const { instanceId } = this;
    const context = { runner: this.#runner, sql: this.#sql, feed: this.#feed, cache: this.#cache, instanceId };
    this.#writer = new SwapWriter({ ...context, maxTtlMs: this.#maxTtlMs, get: (by, id) => this.get(by, id) });
  }

  /** Creates the table if needed (also done by the first call); rejects when the database is unreachable. */
  migrate(): Promise<void> {
    this.#migrated ??= migrateWithRetry(this.#runner, this.#sql.migrate).catch((error: unknown) => {
      this.#migrated = undefined; // try again on the next call
      throw error;
    });
    return this.#migrated;
  }

  async create(owner: TaskOwner, options: CreateTaskOptions): Promise<TaskRecord> {
    this.#assertOpen();
    const taskId = options.taskId ?? this.#newId();
    if (byteLength(encodeText(taskId)) + byteLength(encodeText(owner)) > MAX_ID_AND_OWNER_BYTES) {
      throw new TaskStoreError('invalid_argument', `Task id and owner exceed ${MAX_ID_AND_OWNER_BYTES} bytes`);
    }
    const record = newTask(taskId, owner, options, new Date().toISOString(), this.#maxTtlMs);
    const values = [encodeText(taskId), encodeText(owner), ...writeValues(record)];
    await this.migrate();
    const { maxTasksPerOwner, maxFinishedTasksPerOwner } = this.#ownerLimits;
    try {
      if (maxTasksPerOwner === Number.POSITIVE_INFINITY && maxFinishedTasksPerOwner === Number.POSITIVE_INFINITY) {
        await this.#runner.run(this.#sql.insert, values);
      } else if (!(await insertUnderLimit(this.#pool, this.#sql, values, this.#ownerLimits))) {
        throw taskLimitReached(maxTasksPerOwner);
      }
    } catch (error) {
      if ((error as { code?: unknown }).code === '23505') {
        throw new TaskStoreError('invalid_argument', `Task id ${taskId} is in use`);
      }
      throw error;
    }
    this.#cache.remember(record);
    return record;
  }

  /**
   * The task if `owner` owns it. Concurrent gets share one statement (`coalesceGets`): those made before the next
   * microtask checkpoint, or while every pooled connection is busy. A lone get waits on no timer; a get sees every
   * write that resolved before it was called; a failed statement rejects each of its gets as a lone get would.
   */
  async get(owner: TaskOwner, taskId: string): Promise<TaskRecord | undefined> {
    this.#assertOpen();
    await this.migrate();
    return this.#gets.get(encodeText(taskId), encodeText(owner));
  }

  /** One indexed keyset query (owner, creation time, id); reads one row more than the page to tell if more follow. */
  async list(owner: TaskOwner, options: ListTasksOptions): Promise<TaskPage> {
    this.#assertOpen();
    const { limit, cursor } = options;
    checkListLimit(limit);
    const after = cursor === undefined ? undefined : decodeListCursor(cursor);
    await this.migrate();
    const base = [encodeText(owner), Date.now(), limit + 1];
    const rows =
      after === undefined
        ? await this.#runner.records(this.#sql.list, base)
        : await this.#runner.records(this.#sql.listAfter, [...base, after.createdAt, encodeText(after.taskId)]);
    if (rows.length <= limit) return { tasks: rows };
    const tasks = rows.slice(0, limit);
    return { tasks, nextCursor: encodeListCursor(tasks[tasks.length - 1] as TaskRecord) };
  }

  async swap(owner: TaskOwner, taskId: string, expectedVersion: number, next: TaskRecord): Promise<SwapResult> {
    this.#assertOpen();
    await this.migrate();
    return this.#writer.swap(owner, taskId, expectedVersion, next);
  }

  /**
   * `get` then `swap` in one round trip when this instance knows the task's record (it wrote the task last, or its
   * change feed told it of the last write; at most `updateCacheSize` records): `step` is applied to that record and
   * written on condition that the task is still at its version. The answer is always the one `get` then `swap`
   * would give: a stale record loses the conditional write, and a refusal of `step` on a remembered record is
   * checked against a fresh read (see `SwapWriter.update` for the round trips of each path).
   */
  async update(
    owner: TaskOwner,
    taskId: string,
    step: (current: TaskRecord) => TaskRecord | undefined,
  ): Promise<SwapResult> {
    this.#assertOpen();
    await this.migrate();
    return this.#writer.update(owner, taskId, step);
  }

  async expireDue(now: number, limit: number): Promise<readonly TaskRecord[]> {
    this.#assertOpen();
    await this.migrate();
    const removed: TaskRecord[] = [];
    for (const row of (await this.#runner.run(this.#sql.expireDue, [now, limit, this.instanceId])).rows) {
      const record = parseRecord(row.record as string);
      removed.push(record);
      this.#feed.expired(record, Number(row.expired_seq));
    }
    return removed;
  }

  async lapsedLeases(now: number, limit: number): Promise<readonly TaskRecord[]> {
    this.#assertOpen();
    await this.migrate();
    return this.#runner.records(this.#sql.lapsedLeases, [now, limit]);
  }

  async claim(options: ClaimOptions): Promise<readonly TaskRecord[]> {
    this.#assertOpen();
    await this.migrate();
    const claimed = await this.#durable.claim(options);
    for (const record of claimed) this.#cache.remember(record);
    return claimed;
  }

  async recordStep(owner: TaskOwner, taskId: string, worker: string, step: RecordStepInput): Promise<RecordStepResult> {
    this.#assertOpen();
    const measured = measureStep(step, this.#durable.maxStepBytes);
    await this.migrate();
    return this.#durable.recordStep(owner, taskId, worker, step, measured);
  }

  async steps(owner: TaskOwner, taskId: string): Promise<readonly StepRecord[]> {
    this.#assertOpen();
    await this.migrate();
    return this.#durable.steps(owner, taskId);
  }

  /**
   * Starts the listening connection on first use (and the migration) and adds `listener`. Resolves once
   * notifications of every instance's writes will be delivered.
   */
  async watch(listener: TaskListener): Promise<Unsubscribe> {
    this.#assertOpen();
    await this.migrate();
    this.#listening ??= this.#startListening().catch((error: unknown) => {
      this.#listening = undefined;
      throw mapDatabaseError(error, this.#where, this.#poolWaitTimeoutMs);
    });
    await this.#listening;
    return this.#feed.add(listener);
  }

  async #startListening(): Promise<void> {
    await this.#listener.start();
    // Where a catch-up after a lost connection starts: nothing before LISTEN was active is owed.
    this.#feed.startAt(Number((await this.#runner.run(this.#sql.highWater, [])).rows[0]?.seq ?? 0));
  }

  /** For tests: drops the listening connection as a network failure would; it reconnects and catches up. */
  simulateListenerDisconnect(): void {
    this.#listener.simulateDisconnect();
  }

  /**
   * Stops the change feed and closes every connection; resolves once all their sockets have closed (calls still
   * running finish first), so the database may be stopped or dropped right after. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#feed.clear();
    await Promise.all([this.#listener.close(), this.#pool.end().catch(() => undefined)]);
    await this.#poolClients.allEnded();
  }

  #assertOpen(): void {
    if (this.#closed) throw new TaskStoreError('closed', 'The task store is closed');
  }
}
