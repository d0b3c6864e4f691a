import {
  type InputResponse,
  isTerminalStatus,
  type TaskListener,
  type TaskOwner,
  type TaskRecord,
} from './taskStore.js';
import { TaskStoreError } from './taskStoreError.js';

/** The synchronous view of a store that the waits are built on. */
export interface WaitHost {
  find(owner: TaskOwner, taskId: string): TaskRecord | undefined;
  /** Removes and returns an accepted, undelivered answer. */
  takeAnswer(taskId: string, key: string): InputResponse | undefined;
  listen(taskId: string, listener: TaskListener): () => void;
  /** Rejecters of pending waits, so `close` can end them. */
  readonly pending: Set<(error: Error) => void>;
}

const notFound = (taskId: string) =>
  new TaskStoreError('task_not_found', `Task ${taskId} was not found (unknown, expired or not yours)`);
const ended = (record: TaskRecord) =>
  new TaskStoreError('task_ended', `Task ${record.taskId} is ${record.status}; no more input will arrive`);
const unknownKey = (taskId: string, key: string) =>
  new TaskStoreError('unknown_input_key', `Input key ${key} is not outstanding on task ${taskId}`);

/**
 * Runs `onEvent` for every event of `taskId` until it settles the promise; settling (including through `signal`
 * or the store closing) removes the listener, the abort handler and the pending entry, so nothing leaks.
 */
function waitOn<T>(
  host: WaitHost,
  taskId: string,
  signal: AbortSignal | undefined,
  onEvent: (event: Parameters<TaskListener>[0], resolve: (value: T) => void, reject: (error: Error) => void) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let unlisten: () => void = () => {};
    const cleanup = () => {
      unlisten();
      signal?.removeEventListener('abort', onAbort);
      host.pending.delete(fail);
    };
    const done = (value: T) => {
      cleanup();
      resolve(value);
    };
    function fail(error: unknown): void {
      cleanup();
      reject(error);
    }
    function onAbort(): void {
      fail(signal?.reason);
    }
    host.pending.add(fail);
    signal?.addEventListener('abort', onAbort, { once: true });
    unlisten = host.listen(taskId, (event) => onEvent(event, done, fail));
  });
}

/** `TaskStore.waitForInput` over a synchronous host; see the interface for the contract. */
export function waitForTaskInput(
  host: WaitHost,
  owner: TaskOwner,
  taskId: string,
  key: string,
  signal?: AbortSignal,
): Promise<InputResponse> {
  signal?.throwIfAborted();
  const record = host.find(owner, taskId);
  if (record === undefined) return Promise.reject(notFound(taskId));
  const early = host.takeAnswer(taskId, key);
  if (early !== undefined) return Promise.resolve(early);
  if (isTerminalStatus(record.status)) return Promise.reject(ended(record));
  if (!Object.hasOwn(record.inputRequests, key)) return Promise.reject(unknownKey(taskId, key));
  return waitOn<InputResponse>(host, taskId, signal, (event, resolve, reject) => {
    if (event.type === 'expired') return reject(notFound(taskId));
    const answer = host.takeAnswer(taskId, key);
    if (answer !== undefined) return resolve(answer);
    if (isTerminalStatus(event.record.status)) return reject(ended(event.record));
    // Withdrawn: the key left inputRequests without an answer.
    if (!Object.hasOwn(event.record.inputRequests, key)) reject(unknownKey(taskId, key));
  });
}

/** `TaskStore.waitForEnd` over a synchronous host; see the interface for the contract. */
export function waitForTaskEnd(
  host: WaitHost,
  owner: TaskOwner,
  taskId: string,
  signal?: AbortSignal,
): Promise<TaskRecord | undefined> {
  signal?.throwIfAborted();
  const record = host.find(owner, taskId);
  if (record === undefined || isTerminalStatus(record.status)) return Promise.resolve(record);
  return waitOn<TaskRecord | undefined>(host, taskId, signal, (event, resolve) => {
    if (event.type === 'expired') resolve(undefined);
    else if (isTerminalStatus(event.record.status)) resolve(event.record);
  });
}
