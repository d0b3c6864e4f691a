import {
  type ClaimOptions,
  DEFAULT_MAX_STEP_BYTES,
  DEFAULT_MAX_STEP_BYTES_PER_TASK,
  type RecordStepInput,
  type RecordStepResult,
  type StepRecord,
  type TaskOwner,
  type TaskRecord,
  type TaskStoreLimits,
  taskStepLimit,
} from '@mcp-tasks/task-store';
import { encodeJson, encodeText } from './nulSafe.js';
import type { PostgresChangeFeed } from './postgresChangeFeed.js';
import { parseRecord, parseStep } from './rows.js';
import type { Statements } from './schema.js';
import type { StatementRunner } from './statementRunner.js';

/** The durable-execution calls of `PostgresTaskStore` (claim, steps), each one statement; the store checks and migrates first. */
export class DurableQueries {
  /** Largest step result in bytes (`maxStepBytes`). */
  readonly maxStepBytes: number;
  readonly #maxStepBytesPerTask: number;
  readonly #runner: StatementRunner;
  readonly #sql: Statements;
  readonly #feed: PostgresChangeFeed;
  readonly #instanceId: string;

  constructor(
    runner: StatementRunner,
    sql: Statements,
    feed: PostgresChangeFeed,
    instanceId: string,
    limits: TaskStoreLimits,
  ) {
    this.#runner = runner;
    this.#sql = sql;
    this.#feed = feed;
    this.#instanceId = instanceId;
    this.maxStepBytes = limits.maxStepBytes ?? DEFAULT_MAX_STEP_BYTES;
    this.#maxStepBytesPerTask = limits.maxStepBytesPerTask ?? DEFAULT_MAX_STEP_BYTES_PER_TASK;
  }

  /** One statement: claims, writes and announces (`SKIP LOCKED`, so instances claiming at once never collide). */
  async claim(options: ClaimOptions): Promise<readonly TaskRecord[]> {
    const { worker, limit, leaseMs, now } = options;
    const values = [now, limit, now + leaseMs, worker, this.#instanceId];
    const claimed = await this.#runner.records(this.#sql.claim, values);
    for (const record of claimed) this.#feed.updated(record);
    return claimed;
  }

  /** One statement (one round trip): checks the lease holder and the task's total, writes or returns the stored step. */
  async recordStep(
    owner: TaskOwner,
    taskId: string,
    worker: string,
    step: RecordStepInput,
    { json, bytes }: { readonly json: string; readonly bytes: number },
  ): Promise<RecordStepResult> {
    const values = [encodeText(taskId), encodeText(owner), encodeText(worker), encodeText(step.name)];
    const limits = [step.attempt, bytes, encodeJson(json), this.#maxStepBytesPerTask, this.#instanceId];
    const { rows } = await this.#runner.run(this.#sql.recordStep, [...values, ...limits]);
    const outcome = rows[0]?.outcome as string | undefined;
    const listed = rows[0]?.record;
    // The task's record now lists the step: this instance's listeners hear it at once, others through NOTIFY.
    if (typeof listed === 'string') this.#feed.updated(parseRecord(listed));
    if (outcome === 'fresh' || outcome === 'stored') {
      return { ok: true, fresh: outcome === 'fresh', step: parseStep(rows[0] as Record<string, unknown>) };
    }
    if (outcome === 'too_large') throw taskStepLimit(step.name, this.#maxStepBytesPerTask);
    if (outcome === 'raced') {
      // Another write of the same name committed between our read and insert: its step stands.
      const stored = (await this.steps(owner, taskId)).find((candidate) => candidate.name === step.name);
      if (stored !== undefined) return { ok: true, fresh: false, step: stored };
    }
    return { ok: false };
  }

  async steps(owner: TaskOwner, taskId: string): Promise<readonly StepRecord[]> {
    return (await this.#runner.run(this.#sql.steps, [encodeText(taskId), encodeText(owner)])).rows.map(parseStep);
  }
}
