import { expect, onTestFinished } from 'vitest';
import { TaskOperations } from '../taskOperations.js';
import type {
  InputRequest,
  InputResponse,
  JsonObject,
  TaskError,
  TaskRecord,
  TaskStore,
  TaskStoreLimits,
} from '../taskStore.js';
import { isTaskStoreError, type TaskStoreErrorCode } from '../taskStoreError.js';

/**
 * Builds a fresh, empty store for one test. It must honour `limits` (including `onSweep`) and read time and
 * schedule timers through the globals (`Date.now`, `setTimeout`) at call time, so `vi.useFakeTimers()` drives it.
 */
export type TaskStoreFactory = (limits: TaskStoreLimits) => TaskStore | Promise<TaskStore>;

/** The store under test with the task operations on top; `close` closes both. */
export class ContractStore extends TaskOperations {
  override async close(): Promise<void> {
    await super.close();
    await this.store.close();
  }
}

/** Opens a store for the current test and closes it when the test finishes. */
export type OpenStore = (limits?: TaskStoreLimits) => Promise<ContractStore>;

/** Wraps `factory` so every store a test opens is closed in its teardown. */
export function storeOpener(factory: TaskStoreFactory): OpenStore {
  return async (limits = {}) => {
    const store = new ContractStore(await factory(limits));
    onTestFinished(() => store.close());
    return store;
  };
}

/** Asserts that `promise` rejects with a `TaskStoreError` carrying `code`. */
export async function expectStoreError(promise: Promise<unknown>, code: TaskStoreErrorCode): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(isTaskStoreError(error, code), `expected TaskStoreError ${code}, got ${String(error)}`).toBe(true);
}

/** Asserts the invariants every record must satisfy on its own (payload presence matches status). */
export function expectWellFormed(record: TaskRecord): void {
  const outstanding = Object.keys(record.inputRequests).length;
  expect(outstanding > 0, `inputRequests non-empty exactly when input_required (v${record.version})`).toBe(
    record.status === 'input_required',
  );
  expect(record.result !== undefined).toBe(record.status === 'completed');
  expect(record.error !== undefined).toBe(record.status === 'failed');
  expect(Number.isInteger(record.version) && record.version >= 1).toBe(true);
  expect(Number.isNaN(Date.parse(record.createdAt))).toBe(false);
  expect(record.lastUpdatedAt >= record.createdAt).toBe(true);
}

/** An elicitation request for tests. */
export const ELICIT: InputRequest = {
  method: 'elicitation/create',
  params: { message: 'Proceed?', requestedSchema: { type: 'object', properties: {} } },
};
/** A matching answer. */
export const ACCEPT: InputResponse = { action: 'accept', content: { ok: true } };
/** A tool result. */
export const RESULT: JsonObject = { content: [{ type: 'text', text: 'done' }], isError: false };
/** A JSON-RPC error. */
export const RPC_ERROR: TaskError = { code: -32603, message: 'Internal error', data: { detail: 'boom' } };
