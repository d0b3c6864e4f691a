/**
 * The client as the receiver of 2025-11-25 tasks: a server that sends `elicitation/create` or
 * `sampling/createMessage` with `params.task` gets a task at once and follows it with `tasks/get`, `tasks/result`,
 * `tasks/list` and `tasks/cancel`, while the handler (the person, the model) takes its time.
 */
import { ErrorCode, type LegacyTask, RELATED_TASK_META_KEY } from '@mcp-tasks/protocol';
import type { Clock } from '../clock.js';

type Result = Readonly<Record<string, unknown>>;

/** The outcome of a task method: a result, or a JSON-RPC error to answer with. */
export type ReceiverAnswer = { readonly result: Result } | { readonly error: { code: number; message: string } };

interface Entry {
  task: LegacyTask;
  readonly controller: AbortController;
  /** Settles with the work's answer; never rejects. */
  readonly outcome: Promise<ReceiverAnswer>;
}

const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/**
 * Tasks this client runs for the server of one session. Task ids are random UUIDs; tasks are dropped once their
 * `ttl` (the server's request, milliseconds from creation) has passed, and when the session ends.
 */
export class LegacyTaskReceiver {
  readonly #clock: Clock;
  readonly #tasks = new Map<string, Entry>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /**
   * Starts `work` as a task and returns the `CreateTaskResult`. `work` resolves with the request's result or
   * rejects (a failure becomes a `failed` task whose `tasks/result` is a -32603 error); its signal aborts on
   * `tasks/cancel`.
   */
  create(work: (signal: AbortSignal) => Promise<Result>, ttl: number | undefined): { task: LegacyTask } {
    const now = new Date(this.#clock.now()).toISOString();
    const taskId = globalThis.crypto.randomUUID();
    const controller = new AbortController();
    const task: LegacyTask = { taskId, status: 'working', createdAt: now, lastUpdatedAt: now, ttl: ttl ?? null };
    const outcome = work(controller.signal).then(
      (result): ReceiverAnswer => {
        this.#settle(taskId, 'completed');
        return { result };
      },
      (error: unknown): ReceiverAnswer => {
        if (controller.signal.aborted) return { error: { code: ErrorCode.InvalidParams, message: 'task cancelled' } };
        const message = error instanceof Error ? error.message : String(error);
        this.#settle(taskId, 'failed', message);
        return { error: { code: ErrorCode.InternalError, message } };
      },
    );
    this.#tasks.set(taskId, { task, controller, outcome });
    return { task: { ...task } };
  }

  /** Answers `tasks/get`, `tasks/result`, `tasks/list` or `tasks/cancel`; undefined for any other method. */
  async answer(method: string, params: Readonly<Record<string, unknown>>): Promise<ReceiverAnswer | undefined> {
    this.#prune();
    if (method === 'tasks/list') return { result: { tasks: [...this.#tasks.values()].map((e) => ({ ...e.task })) } };
    if (!['tasks/get', 'tasks/result', 'tasks/cancel'].includes(method)) return undefined;
    const entry = typeof params.taskId === 'string' ? this.#tasks.get(params.taskId) : undefined;
    if (entry === undefined) return { error: { code: ErrorCode.InvalidParams, message: 'unknown or expired task' } };
    if (method === 'tasks/get') return { result: { ...entry.task } };
    if (method === 'tasks/cancel') {
      if (TERMINAL.has(entry.task.status))
        return { error: { code: ErrorCode.InvalidParams, message: `task is already ${entry.task.status}` } };
      this.#settle(entry.task.taskId, 'cancelled');
      entry.controller.abort(new Error('cancelled by the server'));
      return { result: { ...entry.task } };
    }
    const outcome = await entry.outcome;
    if ('error' in outcome) return outcome;
    const related = { [RELATED_TASK_META_KEY]: { taskId: entry.task.taskId } };
    return { result: { ...outcome.result, _meta: related } };
  }

  /** Cancels every running task and forgets them all (the session ended). */
  clear(): void {
    for (const entry of this.#tasks.values()) entry.controller.abort(new Error('session ended'));
    this.#tasks.clear();
  }

  #settle(taskId: string, status: 'completed' | 'failed' | 'cancelled', statusMessage?: string): void {
    const entry = this.#tasks.get(taskId);
    if (entry === undefined || TERMINAL.has(entry.task.status)) return;
    const lastUpdatedAt = new Date(this.#clock.now()).toISOString();
    entry.task = { ...entry.task, status, lastUpdatedAt, ...(statusMessage === undefined ? {} : { statusMessage }) };
  }

  #prune(): void {
    const now = this.#clock.now();
    for (const [taskId, entry] of this.#tasks) {
      const { ttl, createdAt } = entry.task;
      if (ttl !== null && Date.parse(createdAt) + ttl <= now) {
        entry.controller.abort(new Error('task expired'));
        this.#tasks.delete(taskId);
      }
    }
  }
}
