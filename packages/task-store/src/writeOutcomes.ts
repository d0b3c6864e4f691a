/** What the store's conditional writes answer: a lost race is a normal outcome, never an exception. */

import type { TaskRecord } from './taskRecord.js';

/** Outcome of a compare-and-swap style write. */
export type SwapResult =
  | {
      /** The write landed. */
      readonly ok: true;
      /** The record as written (the new version). */
      readonly record: TaskRecord;
    }
  /**
   * Not written: a stale expected version, or the task is terminal (`current` is the record that stands), or it
   * does not exist for this owner (`current` undefined).
   */
  | {
      /** Nothing was written. */
      readonly ok: false;
      /** The record that stands, or `undefined` when the task does not exist for this owner. */
      readonly current: TaskRecord | undefined;
    };

/** Outcome of `requestInput`: the fresh key on success. */
export type RequestInputResult =
  | {
      /** The request was added. */
      readonly ok: true;
      /** The fresh input key, unique for the task's lifetime; the answer comes back under it. */
      readonly key: string;
      /** The record as written, now `input_required`. */
      readonly record: TaskRecord;
    }
  /** The task is terminal (`current` is the record that stands) or not found (`current` undefined). */
  | {
      /** Nothing was written. */
      readonly ok: false;
      /** The terminal record that stands, or `undefined` when the task was not found. */
      readonly current: TaskRecord | undefined;
    };

/** Outcome of `resolveInputs`: which keys were accepted (possibly none; then the record is unchanged). */
export type ResolveInputsResult =
  | {
      /** The task exists for this owner. */
      readonly found: true;
      /** The keys whose answers were accepted, in the order given; empty when none was outstanding. */
      readonly accepted: readonly string[];
      /** The record after the write (unchanged when nothing was accepted). */
      readonly record: TaskRecord;
    }
  | {
      /** The task does not exist for this owner (or has expired). */
      readonly found: false;
    };

/** Outcome of a terminal transition (`complete`, `fail`, `cancel`): `won` tells whether this call decided it. */
export type TerminalResult =
  | {
      /** The task exists for this owner. */
      readonly found: true;
      /** `true` when this call ended the task; `false` when it was already terminal. */
      readonly won: boolean;
      /** The terminal record that stands (this call's when it won, the earlier one otherwise). */
      readonly record: TaskRecord;
    }
  | {
      /** The task does not exist for this owner (or has expired). */
      readonly found: false;
    };
