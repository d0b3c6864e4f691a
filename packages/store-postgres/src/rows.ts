import { isTerminalStatus, runnableAt, type StepRecord, type TaskEvent, type TaskRecord } from '@mcp-tasks/task-store';
import { decodeJson, decodeText, encodeJson } from './nulSafe.js';

/**
 * Parses a stored record and freezes every object in it (records are shared and never mutated). Frozen by a walk
 * after the parse rather than by a `JSON.parse` reviver: a reviver is called for every key and value and made each
 * `get` parse about three times slower (10 against 3-5 µs for a working task's record).
 */
export function parseRecord(text: string): TaskRecord {
  return freezeParsed(JSON.parse(decodeJson(text))) as TaskRecord;
}

/** Freezes a value fresh from `JSON.parse` (no cycles, nothing frozen yet); iterative, so depth cannot overflow. */
function freezeParsed(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const pending: object[] = [value];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    Object.freeze(next);
    for (const child of Object.values(next)) if (typeof child === 'object' && child !== null) pending.push(child);
  }
  return value;
}

/** Epoch ms at which the task expires, or null when it never does. */
export function deadlineOf(record: TaskRecord): number | null {
  return record.ttlMs === null ? null : Date.parse(record.createdAt) + record.ttlMs;
}

/** The lease end the lapsed-lease query looks at: only a live task's lease counts. */
export function leaseUntilOf(record: TaskRecord): number | null {
  return record.lease === undefined || isTerminalStatus(record.status) ? null : record.lease.until;
}

/**
 * The column values of a write, in the order of the store's statements: version, status, deadline, lease, runnable
 * time, record.
 */
export function writeValues(record: TaskRecord): [number, string, number | null, number | null, number | null, string] {
  const json = encodeJson(JSON.stringify(record));
  return [record.version, record.status, deadlineOf(record), leaseUntilOf(record), runnableAt(record), json];
}

/**
 * The record an expiry is reported with when only the task's identity is known (its record was too large for a
 * notification, or the expiry was read back from a tombstone): id, owner and last version.
 */
export function expiryStub(taskId: string, owner: string, version: number): TaskRecord {
  return Object.freeze({
    taskId,
    owner,
    version,
    status: 'working',
    createdAt: '',
    lastUpdatedAt: '',
    ttlMs: 0,
    inputRequests: Object.freeze({}),
    answers: Object.freeze({}),
  });
}

/** A write or an expiry read back by a catch-up, with its sequence number. */
export interface Change {
  readonly type: TaskEvent['type'];
  readonly record: TaskRecord;
  readonly seq: number;
}

/** A row of the catch-up query: a write carries its record, an expiry's tombstone only the task's identity. */
export function changeOf(row: Record<string, unknown>): Change {
  const seq = Number(row.seq);
  if (typeof row.record === 'string') return { type: 'updated', record: parseRecord(row.record), seq };
  const record = expiryStub(decodeText(row.task_id as string), decodeText(row.owner as string), Number(row.version));
  return { type: 'expired', record, seq };
}

/** A row of the step table (name, attempt, result text, completion in epoch ms) as a frozen `StepRecord`. */
export function parseStep(row: Record<string, unknown>): StepRecord {
  const result: unknown = JSON.parse(decodeJson(row.result as string), (_key, value: unknown) =>
    typeof value === 'object' && value !== null ? Object.freeze(value) : value,
  );
  return Object.freeze({
    name: decodeText(row.name as string),
    attempt: Number(row.attempt),
    result,
    completedAt: new Date(Number(row.completed_at)).toISOString(),
  });
}
