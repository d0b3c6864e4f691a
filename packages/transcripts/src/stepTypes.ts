import type { Vars } from './matchValue.js';
import type { SingleStep } from './transcriptSchema.js';

/** A step whose expectations may still be missing: what a recording fills in. */
export type Recordable<T> = T extends {
  /** The expected response of a recorded step. */
  expect: unknown;
}
  ? Omit<T, 'expect'> & {
      /** The expected response; absent until a recording fills it in. */
      expect?: unknown;
    }
  : T;

/** A step to run: recorded (replay) or a skeleton still without expectations (record). */
export type RunnableStep =
  | Recordable<SingleStep>
  | {
      /** Marks a group of steps sent at the same time. */
      readonly kind: 'parallel';
      /** A name for the group (each step inside reports under its own name). */
      readonly name: string;
      /** The steps, started together. */
      readonly steps: readonly Recordable<SingleStep>[];
    };

/** How a run treats expectations. */
export interface RunMode {
  /** `replay` checks every expectation; `record` stores what the server answered instead (see `normalizeForPack`). */
  readonly kind: 'replay' | 'record';
  /** Most time to wait for a task to expire; a later expiry is skipped. */
  readonly expiryBudgetMs: number;
  /** Record mode: turns an answer into the expectation stored in the pack. */
  readonly normalize?: (value: unknown, vars: Vars, stepName: string) => unknown;
}
