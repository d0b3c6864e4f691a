/** The one way a transition builds the next record of a task (shared by `transitions` and `leaseTransitions`). */

import { laterIso } from './fieldChecks.js';
import { rememberFrozenRecord } from './recordFreezer.js';
import type { InputRequest, InputResponse, TaskLease, TaskRecord } from './taskStore.js';

export type Payloads<T> = { readonly [key: string]: T };
export const NO_INPUT_REQUESTS: Payloads<InputRequest> = Object.freeze({});
export const NO_ANSWERS: Payloads<InputResponse> = Object.freeze({});

/** The fields a transition may set; absent keys keep the previous value, present `undefined` clears it. */
export type Changes = {
  -readonly [K in
    | 'status'
    | 'statusMessage'
    | 'pollIntervalMs'
    | 'ttlMs'
    | 'inputRequests'
    | 'answers'
    | 'result'
    | 'error'
    | 'lease'
    | 'execution']?: TaskRecord[K];
};

export function freezeLease(worker: string, until: number): TaskLease {
  return Object.freeze({ worker, until });
}

/** The record after `changes`, one object literal (the fast shape); `touch` moves `lastUpdatedAt`. */
export function next(current: TaskRecord, stamp: string, changes: Changes, touch = true): TaskRecord {
  // Remembered as the last record frozen, so the store writing it next skips the deep-freeze check.
  const record: TaskRecord = Object.freeze({
    taskId: current.taskId,
    owner: current.owner,
    version: current.version + 1,
    status: changes.status ?? current.status,
    statusMessage: 'statusMessage' in changes ? changes.statusMessage : current.statusMessage,
    createdAt: current.createdAt,
    lastUpdatedAt: touch ? laterIso(stamp, current.lastUpdatedAt) : current.lastUpdatedAt,
    ttlMs: changes.ttlMs !== undefined ? changes.ttlMs : current.ttlMs,
    pollIntervalMs: 'pollIntervalMs' in changes ? changes.pollIntervalMs : current.pollIntervalMs,
    inputRequests: changes.inputRequests ?? current.inputRequests,
    answers: changes.answers ?? current.answers,
    result: changes.result ?? current.result,
    error: changes.error ?? current.error,
    requestMeta: current.requestMeta,
    lease: 'lease' in changes ? changes.lease : current.lease,
    execution: 'execution' in changes ? changes.execution : current.execution,
  });
  rememberFrozenRecord(record);
  return record;
}
