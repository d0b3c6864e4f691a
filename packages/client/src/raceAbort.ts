import { onAbort } from '@mcp-tasks/protocol';

/** Waits for `promise` unless `signal` aborts first (then rejects with its reason); the work itself goes on. */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const off = onAbort(signal, () => reject(signal.reason));
    promise.then(resolve, reject).finally(off);
  });
}
