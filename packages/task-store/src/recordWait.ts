import { onAbort } from '@mcp-tasks/protocol';
import type { TaskRecord, Unsubscribe } from './taskStore.js';

/** What a wait decides on each record it sees: a value, an error, or keep waiting (undefined). */
export type Decision<T> = { readonly value: T } | { readonly error: Error } | undefined;

/** What one wait on a task's records needs (see {@link waitOnRecord}). */
export interface RecordWait<T> {
  /** Pending waits of the operations; the wait's reject function is in it until it settles. */
  readonly pending: Set<(error: Error) => void>;
  /** Aborts the wait with its reason. */
  readonly signal: AbortSignal | undefined;
  /** Settles the wait on a record (undefined: expired or not found), or keeps waiting. */
  readonly decide: (record: TaskRecord | undefined) => Decision<T>;
  /** Subscribes `judge` to the task's newer records. */
  readonly listen: (judge: (record: TaskRecord | undefined) => void) => Unsubscribe;
  /** Reads the current record. */
  readonly read: () => Promise<TaskRecord | undefined>;
}

/**
 * Runs `decide` on the current record and on every newer one until it settles; settling (also through `signal`
 * or the operations closing) removes the listener, the abort handler and the pending entry, so nothing leaks.
 */
export function waitOnRecord<T>(wait: RecordWait<T>): Promise<T> {
  const { pending, signal, decide } = wait;
  return new Promise<T>((resolve, reject) => {
    let seen = 0;
    let settled = false;
    let unlisten: Unsubscribe = () => undefined;
    let off: () => void = () => undefined;
    const cleanup = () => {
      settled = true;
      unlisten();
      off();
      pending.delete(fail);
    };
    const fail = (error: unknown) => {
      cleanup();
      reject(error);
    };
    const judge = (record: TaskRecord | undefined) => {
      if (settled) return;
      if (record !== undefined) {
        // A late event of an older version must not override what a newer read showed.
        if (record.version <= seen) return;
        seen = record.version;
      }
      const decision = decide(record);
      if (decision === undefined) return;
      if ('error' in decision) return fail(decision.error);
      cleanup();
      resolve(decision.value);
    };
    pending.add(fail);
    if (signal !== undefined) off = onAbort(signal, () => fail(signal.reason));
    if (signal?.aborted) return fail(signal.reason);
    unlisten = wait.listen(judge);
    wait.read().then(judge, fail);
  });
}
