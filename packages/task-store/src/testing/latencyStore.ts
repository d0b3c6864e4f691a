import { type DurableTaskStore, isDurableTaskStore } from '../durableTaskStore.js';
import type { TaskStore } from '../taskStore.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Wraps a store so it behaves like one across a network: every call answers `latencyMs` late (half before, half
 * after the inner call), and every change-feed event arrives `latencyMs` after the write, in order. Running the
 * contract suite through it checks that callers never lean on synchronous delivery. A durable store stays durable.
 */
export function withLatency(inner: TaskStore, latencyMs = 2): TaskStore {
  const half = latencyMs / 2;
  const late =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await sleep(half);
      const result = await call(...args);
      await sleep(half);
      return result;
    };
  const durable: Partial<DurableTaskStore> = isDurableTaskStore(inner)
    ? {
        recordStep: late((owner, taskId, worker, step) => inner.recordStep(owner, taskId, worker, step)),
        steps: late((owner, taskId) => inner.steps(owner, taskId)),
        claim: late((options) => inner.claim(options)),
      }
    : {};
  return {
    ...durable,
    create: late((owner, options) => inner.create(owner, options)),
    get: late((owner, taskId) => inner.get(owner, taskId)),
    list: late((owner, options) => inner.list(owner, options)),
    swap: late((owner, taskId, version, next) => inner.swap(owner, taskId, version, next)),
    expireDue: late((now, limit) => inner.expireDue(now, limit)),
    lapsedLeases: late((now, limit) => inner.lapsedLeases(now, limit)),
    close: late(() => inner.close()),
    watch: late(async (listener) => {
      let active = true;
      let chain = Promise.resolve();
      const unwatch = await inner.watch((event) => {
        chain = chain
          .then(() => sleep(latencyMs))
          .then(() => {
            if (active) listener(event);
          });
      });
      return () => {
        active = false;
        unwatch();
      };
    }),
  };
}
