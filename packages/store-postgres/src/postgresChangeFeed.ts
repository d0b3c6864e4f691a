import type { TaskEvent, TaskListener, TaskRecord, Unsubscribe } from '@mcp-tasks/task-store';
import { decodeText } from './nulSafe.js';
import { expiryStub, parseRecord } from './rows.js';

/** A notification on the store's channel, as `schema.ts` builds it. */
type Notification = [
  kind: 'u' | 'x',
  seq: number,
  version: number,
  instance: string,
  taskId: string,
  owner: string,
  record: unknown,
];

export type { Change } from './rows.js';

import type { Change } from './rows.js';

/** What the feed needs from the store: fetch current records by id, and the changes after a sequence number. */
export interface ChangeSource {
  readonly instanceId: string;
  fetch(taskIds: readonly string[]): Promise<readonly TaskRecord[]>;
  /** Writes and expiries with a sequence number above `seq`, in sequence order, at most `limit`. */
  changedSince(seq: number, limit: number): Promise<readonly Change[]>;
}

/**
 * How far below the highest sequence number seen a catch-up starts: sequence numbers are drawn before commit, so a
 * lower one can commit (and notify) after a higher one; re-reading a margin is harmless (versions are compared).
 */
const CATCH_UP_SLACK = 1_000;
/** Rows read per catch-up query. */
const CATCH_UP_PAGE = 1_000;

/**
 * The store's change feed: its own writes are delivered right after they commit; other instances' writes arrive
 * as notifications (task id and version) and are fetched, in batches, by id. Per task, events are delivered in
 * increasing version order, each at most once; a reader may miss an intermediate version of another instance's
 * writes (it then sees a later one), never see one go backwards.
 */
export class PostgresChangeFeed {
  readonly #source: ChangeSource;
  readonly #onListenerError: (error: unknown) => void;
  readonly #onError: (error: unknown) => void;
  #listeners: readonly TaskListener[] = [];
  /** Highest version delivered per task, until the task expires. */
  readonly #delivered = new Map<string, number>();
  readonly #pending = new Set<string>();
  /** Sequence numbers of the expiries delivered, so a catch-up re-reading them does not deliver them again. */
  readonly #expiries = new Set<number>();
  #fetching = false;
  #highWater = 0;

  constructor(source: ChangeSource, onListenerError: (error: unknown) => void, onError: (error: unknown) => void) {
    this.#source = source;
    this.#onListenerError = onListenerError;
    this.#onError = onError;
  }

  get size(): number {
    return this.#listeners.length;
  }

  add(listener: TaskListener): Unsubscribe {
    const entry: TaskListener = (event) => listener(event);
    this.#listeners = [...this.#listeners, entry];
    return () => {
      this.#listeners = this.#listeners.filter((other) => other !== entry);
    };
  }

  clear(): void {
    this.#listeners = [];
    this.#delivered.clear();
    this.#pending.clear();
    this.#expiries.clear();
  }

  /** Sets where a catch-up starts (the sequence's value when the feed started listening). */
  startAt(seq: number): void {
    this.#highWater = Math.max(this.#highWater, seq);
  }

  /** Delivers a committed write unless a later version of the task was delivered already. */
  updated(record: TaskRecord): void {
    const last = this.#delivered.get(record.taskId) ?? 0;
    if (record.version <= last) return;
    this.#delivered.set(record.taskId, record.version);
    this.#emit({ type: 'updated', record });
  }

  /** Delivers the removal of an expired task, once per expiry (`seq`, the number of its tombstone). */
  expired(record: TaskRecord, seq: number): void {
    if (this.#expiries.has(seq)) return;
    this.#expiries.add(seq);
    this.#highWater = Math.max(this.#highWater, seq); // also bounds what is remembered in a store that never listens
    if (this.#expiries.size > 2 * CATCH_UP_SLACK) this.#forgetExpiriesUpTo(this.#highWater - CATCH_UP_SLACK);
    this.#delivered.delete(record.taskId);
    this.#emit({ type: 'expired', record });
  }

  /** A catch-up never reads below its start, so expiries up to there need no remembering. */
  #forgetExpiriesUpTo(seq: number): void {
    for (const expiry of this.#expiries) if (expiry <= seq) this.#expiries.delete(expiry);
  }

  /** Handles one notification payload from the listening connection. */
  notified(payload: string): void {
    let message: Notification;
    try {
      message = JSON.parse(payload) as Notification;
    } catch (error) {
      this.#onError(error);
      return;
    }
    const [kind, seq, version, instance, encodedId, encodedOwner, record] = message;
    const taskId = decodeText(encodedId);
    const owner = decodeText(encodedOwner);
    this.#highWater = Math.max(this.#highWater, seq);
    if (instance === this.#source.instanceId) return; // delivered when the write committed
    if (kind === 'x') {
      this.expired(expiredRecord(taskId, owner, version, record), seq);
    } else if (version > (this.#delivered.get(taskId) ?? 0)) {
      this.#pending.add(taskId);
      if (!this.#fetching) void this.#fetchPending();
    }
  }

  /**
   * Re-reads every write and expiry since the last change seen (after the listening connection was down), in
   * sequence order; what was delivered already is not delivered again.
   */
  async catchUp(): Promise<void> {
    let from = Math.max(0, this.#highWater - CATCH_UP_SLACK);
    this.#forgetExpiriesUpTo(from);
    for (;;) {
      const rows = await this.#source.changedSince(from, CATCH_UP_PAGE);
      for (const { type, record, seq } of rows) {
        from = Math.max(from, seq);
        if (type === 'expired') this.expired(record, seq);
        else this.updated(record);
      }
      this.#highWater = Math.max(this.#highWater, from);
      if (rows.length < CATCH_UP_PAGE) return;
    }
  }

  async #fetchPending(): Promise<void> {
    this.#fetching = true;
    try {
      // Notifications arriving while a fetch runs are collected and fetched together by the next round.
      while (this.#pending.size > 0) {
        const ids = [...this.#pending];
        this.#pending.clear();
        for (const record of await this.#source.fetch(ids)) this.updated(record);
      }
    } catch (error) {
      this.#onError(error);
    } finally {
      this.#fetching = false;
    }
  }

  #emit(event: TaskEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
  }
}

/** The record of an expiry notification: the record itself when it fit, else the fields that identify the task. */
function expiredRecord(taskId: string, owner: string, version: number, record: unknown): TaskRecord {
  if (typeof record === 'object' && record !== null) return parseRecord(JSON.stringify(record));
  return expiryStub(taskId, owner, version);
}
