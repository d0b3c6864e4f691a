/**
 * Transitions of a task's lease and of its durable execution (`TaskRecord.execution`): invisible to clients, so
 * they leave `lastUpdatedAt` as it is. Re-exported by `transitions`.
 */

import { runnableAt } from './durableTaskStore.js';
import { freezeLease, next } from './nextRecord.js';
import type { TaskExecution } from './taskExecution.js';
import { isTerminalStatus, type TaskLease, type TaskRecord } from './taskStore.js';

/**
 * Extends the lease of `worker` to `until`. Refused when the task is terminal or the lease belongs to another
 * worker (it was taken over: the caller lost it). Invisible to clients: `lastUpdatedAt` stays.
 */
export function renewLease(current: TaskRecord, worker: string, until: number): TaskRecord | undefined {
  if (isTerminalStatus(current.status) || current.lease?.worker !== worker) return undefined;
  return next(current, current.lastUpdatedAt, { lease: freezeLease(worker, until) }, false);
}

/**
 * Gives the lease to `worker` until `until`, when the task has none or its lease ran out at or before `now` (the
 * previous worker is lost). Refused for a terminal task or a lease still held.
 */
export function takeOverLease(current: TaskRecord, worker: string, until: number, now: number): TaskRecord | undefined {
  if (isTerminalStatus(current.status) || (current.lease !== undefined && current.lease.until > now)) return undefined;
  return next(current, current.lastUpdatedAt, { lease: freezeLease(worker, until) }, false);
}

/**
 * Lets go of the lease of `worker` at once (it shuts down and leaves the task to another instance): the lease runs
 * out at `now`, so the next lease sweep of any instance resolves the task. Refused when not held by `worker`.
 */
export function releaseLease(current: TaskRecord, worker: string, now: number): TaskRecord | undefined {
  if (isTerminalStatus(current.status) || current.lease?.worker !== worker) return undefined;
  return next(current, current.lastUpdatedAt, { lease: freezeLease(worker, now) }, false);
}

/**
 * Whether run `attempt` of `worker` may still write to the task (record a step): the task is live, `worker` holds
 * its lease and `attempt` is its current run. An older run of the same worker, taken over by a claim, may not.
 */
export function holdsRun(record: TaskRecord, worker: string, attempt: number): boolean {
  const current = record.execution?.attempt ?? 0;
  return !isTerminalStatus(record.status) && record.lease?.worker === worker && current === attempt;
}

/** The lease a task holds, if it is still valid at `now`. */
export function heldLease(record: TaskRecord, now: number): TaskLease | undefined {
  return record.lease !== undefined && record.lease.until > now ? record.lease : undefined;
}

const execution = (state: TaskExecution['state'], attempt: number, notBefore?: number): TaskExecution =>
  Object.freeze(notBefore === undefined ? { state, attempt } : { state, attempt, notBefore });

/** The execution a durable task is created with: running on the creator's lease, else queued for any worker. */
export function initialExecution(lease: TaskLease | undefined): TaskExecution {
  return lease === undefined ? execution('queued', 0) : execution('running', 1);
}

/**
 * Gives a runnable durable task (queued and due, or running on a lease run out at or before `now`) to `worker`:
 * `running`, `attempt + 1`, leased until `until`. Refused for any other task.
 */
export function claimTask(current: TaskRecord, worker: string, until: number, now: number): TaskRecord | undefined {
  const due = runnableAt(current);
  if (due === null || due > now || current.execution === undefined) return undefined;
  const claimed = execution('running', current.execution.attempt + 1);
  return next(current, current.lastUpdatedAt, { lease: freezeLease(worker, until), execution: claimed }, false);
}

/**
 * Parks the running durable task of `worker`: the lease goes and no worker holds it until its outstanding input
 * requests are all answered. When none is outstanding any more (the answer came first) it is queued instead, so
 * the wake is never lost. Refused when `worker` does not hold the lease.
 */
export function parkTask(current: TaskRecord, worker: string): TaskRecord | undefined {
  const held = current.execution;
  if (held?.state !== 'running' || isTerminalStatus(current.status) || current.lease?.worker !== worker) {
    return undefined;
  }
  const state = current.status === 'input_required' ? 'parked' : 'queued';
  return next(current, current.lastUpdatedAt, { lease: undefined, execution: execution(state, held.attempt) }, false);
}

/**
 * Hands the running durable task of `worker` back at once (a drain, or a retry after `notBefore`): queued, no
 * lease, claimable by any worker from `notBefore` (absent: now). Refused when `worker` does not hold the lease.
 */
export function handBackTask(current: TaskRecord, worker: string, notBefore?: number): TaskRecord | undefined {
  const held = current.execution;
  if (held?.state !== 'running' || isTerminalStatus(current.status) || current.lease?.worker !== worker) {
    return undefined;
  }
  const queued = execution('queued', held.attempt, notBefore);
  return next(current, current.lastUpdatedAt, { lease: undefined, execution: queued }, false);
}

/** The execution after input changes to `status`: a parked task whose last request was settled is queued (woken). */
export function wokenExecution(current: TaskRecord, status: TaskRecord['status']): TaskExecution | undefined {
  const held = current.execution;
  if (held?.state === 'parked' && status === 'working') return execution('queued', held.attempt);
  return held;
}
