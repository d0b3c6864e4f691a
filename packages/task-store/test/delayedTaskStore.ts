import type { TaskListener, TaskStore } from '../src/index.js';

const hop = async (count = 3): Promise<void> => {
  for (let i = 0; i < count; i++) await null;
};

/**
 * A store that behaves like a remote one: every call resolves a few microtask hops late and events arrive after
 * the writer's promise has resolved. Running the contract suite over it checks the suite does not lean on the
 * in-memory store's synchronous delivery.
 */
export function delayedTaskStore(inner: TaskStore): TaskStore {
  const delayed =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await hop();
      const result = await call(...args);
      await hop(2);
      return result;
    };
  return {
    create: delayed((owner, options) => inner.create(owner, options)),
    get: delayed((owner, taskId) => inner.get(owner, taskId)),
    compareAndSwap: delayed((owner, taskId, version, patch) => inner.compareAndSwap(owner, taskId, version, patch)),
    setStatusMessage: delayed((owner, taskId, message) => inner.setStatusMessage(owner, taskId, message)),
    requestInput: delayed((owner, taskId, request) => inner.requestInput(owner, taskId, request)),
    resolveInputs: delayed((owner, taskId, responses) => inner.resolveInputs(owner, taskId, responses)),
    withdrawInput: delayed((owner, taskId, key) => inner.withdrawInput(owner, taskId, key)),
    complete: delayed((owner, taskId, result, message) => inner.complete(owner, taskId, result, message)),
    fail: delayed((owner, taskId, error, message) => inner.fail(owner, taskId, error, message)),
    cancel: delayed((owner, taskId, reason) => inner.cancel(owner, taskId, reason)),
    waitForInput: delayed((owner, taskId, key, signal) => inner.waitForInput(owner, taskId, key, signal)),
    waitForEnd: delayed((owner, taskId, signal) => inner.waitForEnd(owner, taskId, signal)),
    close: delayed(() => inner.close()),
    subscribe: delayed(async (owner, taskId, listener: TaskListener) => {
      let active = true;
      let chain = Promise.resolve();
      const unsubscribe = await inner.subscribe(owner, taskId, (event) => {
        // Each event is delivered later than the write that caused it, in order.
        chain = chain
          .then(() => hop(4))
          .then(() => {
            if (active) listener(event);
          });
      });
      return () => {
        active = false;
        unsubscribe();
      };
    }),
  };
}
