import { isTerminalStatus, type SwapResult, type TaskOwner, type TaskRecord } from '@mcp-tasks/task-store';
import { encodeText } from './nulSafe.js';
import type { PostgresChangeFeed } from './postgresChangeFeed.js';
import type { RecordCache } from './recordCache.js';
import { parseRecord, writeValues } from './rows.js';
import type { Statements } from './schema.js';
import type { StatementRunner } from './statementRunner.js';
import { swapRefusal } from './swapRefusal.js';

/** What the writer needs of its store. */
export interface SwapWriterContext {
  readonly runner: StatementRunner;
  readonly sql: Statements;
  readonly feed: PostgresChangeFeed;
  readonly cache: RecordCache;
  readonly instanceId: string;
  readonly maxTtlMs: number | null;
  /** The store's own (coalesced) `get`. */
  get(owner: TaskOwner, taskId: string): Promise<TaskRecord | undefined>;
}

/**
 * The conditional writes of `PostgresTaskStore`: `swap`, and `update` served from the records this instance knows
 * (`RecordCache`), so a transition of a task this instance wrote last costs one statement instead of a read and a
 * write. The store checks it is open and migrated before calling.
 */
export class SwapWriter {
  readonly #context: SwapWriterContext;

  constructor(context: SwapWriterContext) {
    this.#context = context;
  }

  /** `TaskStore.swap`. */
  swap(owner: TaskOwner, taskId: string, expectedVersion: number, next: TaskRecord): Promise<SwapResult> {
    return this.#write(owner, taskId, expectedVersion, next, undefined);
  }

  /**
   * `TaskStore.update`, answering exactly what `get` then `swap` (`applyBySwap`) would: `step` applied to the cached
   * record, written on condition that the task is still at that version (one statement); on a lost race, `step`
   * applied to the record that won, as `applyBySwap` does. A refusal of `step` (undefined, or the record itself) on
   * a cached record is not taken as the answer, since the task may have moved on: the task is read and `step`
   * applied again. Without a cached record, a read then a conditional write, as before. Round trips: one for a
   * cached record that is current; two when nothing is cached or `step` refuses; three (write, read, write) when
   * the cached record is stale and `step` applies to the current one too (another instance wrote the task since
   * this one last wrote it, and its change feed had not told it yet): rare, and the only path dearer than before.
   */
  async update(
    owner: TaskOwner,
    taskId: string,
    step: (current: TaskRecord) => TaskRecord | undefined,
  ): Promise<SwapResult> {
    let current = this.#context.cache.lookup(owner, taskId);
    let read = current === undefined;
    if (current === undefined) current = await this.#context.get(owner, taskId);
    while (current !== undefined) {
      const next = step(current);
      if (next === undefined || next === current) {
        if (read) return { ok: false, current };
        current = await this.#context.get(owner, taskId);
        read = true;
        continue;
      }
      // The creation time too: a cached record must not match a later task that was given the same id.
      const swapped = await this.#write(owner, taskId, current.version, next, current.createdAt);
      if (swapped.ok) return swapped;
      current = swapped.current;
      read = true;
    }
    return { ok: false, current: undefined };
  }

  /** A swap; with `createdAt`, only of the task created then (the update cache's guard against a reused id). */
  async #write(
    owner: TaskOwner,
    taskId: string,
    expectedVersion: number,
    next: TaskRecord,
    createdAt: string | undefined,
  ): Promise<SwapResult> {
    const { runner, sql, feed, cache } = this.#context;
    const refusal = swapRefusal(taskId, owner, expectedVersion, next, this.#context.maxTtlMs);
    if (refusal !== undefined) {
      // As in every store, a stale or foreign swap is a lost race first; a malformed `next` is refused only
      // where it would have been written.
      const lost = await this.#lost(owner, taskId);
      const { current } = lost;
      if (current === undefined || current.version !== expectedVersion || isTerminalStatus(current.status)) return lost;
      if (createdAt !== undefined && current.createdAt !== createdAt) return lost;
      throw refusal;
    }
    const values = [
      encodeText(taskId),
      encodeText(owner),
      expectedVersion,
      ...writeValues(next),
      this.#context.instanceId,
    ];
    const written = await (createdAt === undefined
      ? runner.run(sql.swap, values)
      : runner.run(sql.swapSameTask, [...values, createdAt]));
    if (written.rowCount === 0) return this.#lost(owner, taskId);
    // Records built by the transitions are deep-frozen already; anything else is frozen by a parse of its JSON.
    const record = Object.isFrozen(next) ? next : parseRecord(JSON.stringify(next));
    cache.remember(record);
    feed.updated(record);
    return { ok: true, record };
  }

  /** The answer of a lost race: the current record, now the one this instance knows. */
  async #lost(owner: TaskOwner, taskId: string): Promise<SwapResult & { ok: false }> {
    const current = await this.#context.get(owner, taskId);
    if (current === undefined) this.#context.cache.forget(owner, taskId);
    else this.#context.cache.remember(current);
    return { ok: false, current };
  }
}
