/**
 * Drives one task from its seed to an outcome: observe (poll `tasks/get`, or notifications), answer input
 * requests, give up when stuck or expired, cancel when the caller aborts. The decisions live in `TaskTracker`;
 * this module only carries them out.
 */
import {
  type DetailedTask,
  ErrorCode,
  ErrorSchema,
  type InputRequest,
  type InputResponses,
  ProtocolError,
  type Task,
} from '@mcp-tasks/protocol';
import { changedStatusListener, type TaskStatusListener } from './changedStatusListener.js';
import type { Clock } from './clock.js';
import {
  InputHandlerError,
  InvalidResponseError,
  TaskCancelledError,
  TaskExpiredError,
  TaskFailedError,
  TaskNotFoundError,
  TaskStuckError,
} from './errors.js';
import { type InputHandlers, type InputOrigin, resolveInputRequests } from './inputResolver.js';
import type { TaskJournal } from './taskJournal.js';
import { pollDelay, type ResolvedPollingOptions, TaskTracker } from './taskTracker.js';

/**
 * The three task methods, as the driver needs them (named apart from task-store's `TaskOperations` class).
 * `McpClient` implements this over its transport.
 */
export interface TaskRpc {
  /** `tasks/get`; rejects with `ProtocolError` (e.g. `-32602`) or `InvalidResponseError`. */
  get(taskId: string, signal?: AbortSignal): Promise<DetailedTask>;
  /** `tasks/update` with `inputResponses`; resolves on the ack (which says nothing about task state). */
  update(taskId: string, inputResponses: InputResponses, signal?: AbortSignal): Promise<void>;
  /** `tasks/cancel`; resolves on the ack; `signal` bounds the wait. */
  cancel(taskId: string, signal?: AbortSignal): Promise<void>;
}

/** @deprecated Renamed {@link TaskRpc} (task-store has a `TaskOperations` class); this alias will be removed. */
export type TaskOperations = TaskRpc;

/**
 * Where observed task states come from. The default polls `tasks/get` after `delayMs`; a notification source
 * may resolve sooner. Either way the states are `DetailedTask`s with the same meaning.
 */
export interface TaskObserver {
  /** The next observed state; `delayMs` is when a poll would be due. Rejects with `signal.reason` on abort. */
  next(delayMs: number, signal: AbortSignal): Promise<DetailedTask>;
  /** Releases what the observer holds (e.g. a listen stream). Called once the drive ends, however it ends. */
  close(): void;
}

/** Options of {@link driveTask}. */
export interface DriveTaskOptions<R> {
  /** The task methods to drive the task with. */
  readonly operations: TaskRpc;
  /** The application's input handlers, which answer the task's input requests. */
  readonly handlers: InputHandlers;
  /** Polling intervals and give-up thresholds, defaults applied. */
  readonly polling: ResolvedPollingOptions;
  /** The clock for waits and TTL checks. */
  readonly clock: Clock;
  /** Validates a `completed` task's `result` as the original method's result (e.g. `CallToolResult`). */
  readonly parseResult: (result: unknown) => R;
  /** Aborting it stops driving the task and sends `tasks/cancel`. */
  readonly signal?: AbortSignal | undefined;
  /** Sees each observed task state that changed (status, message or `lastUpdatedAt`), the seed first. */
  readonly onStatus?: TaskStatusListener | undefined;
  /** Removed from when the client stops driving the task for good (see `TaskJournal`). */
  readonly journal?: TaskJournal | undefined;
  /** Replaces plain polling (used for notifications). */
  readonly observer?: TaskObserver | undefined;
  /**
   * The request that created the task (method and the params the application passed), handed to input handlers
   * with the task id. Default: `tools/call` with unknown params.
   */
  readonly origin?: Omit<InputOrigin, 'taskId'> | undefined;
}

/**
 * Drives task `taskId` until it reaches an outcome, starting from `seed` (the `CreateTaskResult`; absent when
 * resuming, then the first `tasks/get` happens at once), and resolves with the `completed` result (even
 * when it has `isError: true`). Rejects with `TaskFailedError`, `TaskCancelledError`, `TaskNotFoundError`
 *, `TaskExpiredError`, `TaskStuckError`, `InputHandlerError`, `InvalidResponseError`, or the abort
 * reason when `signal` aborts; stuck, expired, input failures and aborts first send a best-effort `tasks/cancel`
 * (never `notifications/cancelled`) and do not wait for the task to reach `cancelled`.
 * A seed in any status is handled; a non-`working` seed is followed up at once with `tasks/get`.
 */
export async function driveTask<R>(taskId: string, seed: Task | undefined, options: DriveTaskOptions<R>): Promise<R> {
  const { operations, clock, polling, journal } = options;
  const signal = options.signal ?? new AbortController().signal;
  const observer: TaskObserver = options.observer ?? {
    async next(delayMs, s) {
      await clock.sleep(delayMs, s);
      return operations.get(taskId, s);
    },
    close: () => undefined,
  };
  const tracker = new TaskTracker(polling);
  const onStatus = changedStatusListener(options.onStatus);
  if (seed) notify(onStatus, seed);
  let delayMs = seed?.status === 'working' ? pollDelay(seed, polling) : 0;
  try {
    for (;;) {
      const task = await observeOnce(observer, taskId, delayMs, signal);
      notify(onStatus, task);
      const decision = tracker.observe(task, clock.now());
      switch (decision.action) {
        case 'finish':
          await journal?.remove(taskId);
          return outcome(task, options.parseResult);
        case 'give_up':
          // Awaited here so that its errors pass through the catch below, as the other outcomes do.
          return await giveUp(task, decision.reason, options);
        case 'answer': {
          const requests = pick(task, decision.keys);
          const origin = { method: 'tools/call', ...options.origin, taskId };
          const responses = await resolveInputRequests(requests, options.handlers, signal, origin);
          await operations.update(taskId, responses, signal);
          delayMs = decision.delayMs;
          break;
        }
        case 'poll':
          delayMs = decision.delayMs;
          break;
      }
    }
  } catch (error) {
    if (signal.aborted) {
      await cancelOrKeep(operations, taskId, journal);
      throw signal.reason;
    }
    if (error instanceof InputHandlerError) {
      // The server waits for an answer we cannot give; cancel rather than leave the task parked.
      await cancelOrKeep(operations, taskId, journal);
    } else if (error instanceof TaskNotFoundError) {
      await journal?.remove(taskId);
    }
    throw error;
  } finally {
    observer.close();
  }
}

async function observeOnce(
  observer: TaskObserver,
  taskId: string,
  delayMs: number,
  signal: AbortSignal,
): Promise<DetailedTask> {
  let task: DetailedTask;
  try {
    task = await observer.next(delayMs, signal);
  } catch (error) {
    if (error instanceof ProtocolError && error.code === ErrorCode.InvalidParams)
      throw new TaskNotFoundError(taskId, error);
    throw error;
  }
  if (task.taskId !== taskId)
    throw new InvalidResponseError('tasks/get', `state of task ${task.taskId}, not ${taskId}`);
  return task;
}

/** Ends the drive of a task the tracker gave up on, with `TaskExpiredError` or `TaskStuckError`. */
async function giveUp<R>(
  task: DetailedTask,
  reason: 'stuck' | 'expired',
  options: DriveTaskOptions<R>,
): Promise<never> {
  const { operations, journal } = options;
  if (reason !== 'stuck') {
    // Expired: the server may already have dropped it; a cancel is courtesy, the entry is of no use.
    await cancelWithin(operations, task.taskId);
    await journal?.remove(task.taskId);
    throw new TaskExpiredError(task.taskId, task.createdAt, task.ttlMs ?? 0);
  }
  const refused = await cancelOrKeep(operations, task.taskId, journal);
  const stuckAfterPolls = options.polling.stuckAfterPolls;
  throw new TaskStuckError(task.taskId, stuckAfterPolls, refused === undefined ? {} : { cancelError: refused });
}

function outcome<R>(task: DetailedTask, parseResult: (result: unknown) => R): R {
  switch (task.status) {
    case 'completed':
      return parseResult(task.result);
    case 'failed': {
      const parsed = ErrorSchema.safeParse(task.error);
      if (!parsed.success) throw new InvalidResponseError('tasks/get', 'failed task without a JSON-RPC error');
      throw new TaskFailedError(task.taskId, ProtocolError.fromError(parsed.data), task.statusMessage);
    }
    default:
      throw new TaskCancelledError(task.taskId, task.statusMessage);
  }
}

function pick(task: DetailedTask, keys: readonly string[]): Record<string, InputRequest> {
  const all = task.status === 'input_required' ? task.inputRequests : {};
  const picked: Record<string, InputRequest> = {};
  for (const key of keys) {
    const request = all[key];
    if (request !== undefined) picked[key] = request;
  }
  return picked;
}

/** How long giving up waits for the `tasks/cancel` ack: long enough to get it out, short enough to leave. */
export const CANCEL_ACK_TIMEOUT_MS = 3000;

/**
 * Sends `tasks/cancel` and waits for the ack at most {@link CANCEL_ACK_TIMEOUT_MS}, so a caller that exits right
 * after the rejection does not exit before the cancel left. Resolves with the error if it was not acknowledged.
 */
async function cancelWithin(operations: TaskRpc, taskId: string): Promise<unknown> {
  try {
    await operations.cancel(taskId, AbortSignal.timeout(CANCEL_ACK_TIMEOUT_MS));
    return undefined;
  } catch (error) {
    return error ?? new Error('tasks/cancel failed');
  }
}

/** Cancels; the journal entry goes only once the server acknowledged it, so an unsent cancel can be retried. */
async function cancelOrKeep(operations: TaskRpc, taskId: string, journal: TaskJournal | undefined): Promise<unknown> {
  const refused = await cancelWithin(operations, taskId);
  if (refused === undefined) await journal?.remove(taskId);
  return refused;
}

function notify(listener: TaskStatusListener | undefined, task: Task | DetailedTask): void {
  try {
    listener?.(task);
  } catch {
    // A progress UI must not be able to break the call it observes.
  }
}
