import { describe, expect, it } from 'vitest';
import type { TerminalResult } from '../taskStore.js';
import { ACCEPT, ELICIT, expectWellFormed, type OpenStore, RESULT } from './contractContext.js';

const TASKS = 1_000;
const RACERS = ['cancel', 'complete', 'resolve'] as const;

/** Races on one task resolve by rule: exactly one terminal state, exactly one winner. */
export function concurrencyContract(open: OpenStore): void {
  describe('concurrency', () => {
    it(`ends each of ${TASKS} tasks raced by cancel, complete and resolveInputs in one terminal state with one winner`, async () => {
      const store = await open();
      const prepared = await Promise.all(
        Array.from({ length: TASKS }, async () => {
          const task = await store.create('alice', { ttlMs: null });
          const asked = await store.requestInput('alice', task.taskId, ELICIT);
          if (!asked.ok) throw new Error('requestInput failed');
          return { taskId: task.taskId, key: asked.key };
        }),
      );
      // Every racer of every task is issued before any is awaited; the issue order rotates per task.
      const races = prepared.map(({ taskId, key }, i) => {
        const racers = {
          cancel: () => store.cancel('alice', taskId, 'race'),
          complete: () => store.complete('alice', taskId, RESULT),
          resolve: () => store.resolveInputs('alice', taskId, { [key]: ACCEPT }),
        };
        const issue = (offset: number) => RACERS[(i + offset) % RACERS.length] as keyof typeof racers;
        const started = new Map<string, Promise<unknown>>();
        for (let offset = 0; offset < RACERS.length; offset++) started.set(issue(offset), racers[issue(offset)]());
        return {
          taskId,
          cancel: started.get('cancel') as Promise<TerminalResult>,
          complete: started.get('complete') as Promise<TerminalResult>,
          resolve: started.get('resolve'),
        };
      });
      for (const race of races) {
        const cancel = await race.cancel;
        const complete = await race.complete;
        await race.resolve;
        expect(cancel.found && complete.found).toBe(true);
        if (!cancel.found || !complete.found) continue;
        expect(Number(cancel.won) + Number(complete.won)).toBe(1);
        const winner = cancel.won ? cancel.record : complete.record;
        const final = await store.get('alice', race.taskId);
        expect(final).toEqual(winner);
        expect(final?.status).toBe(cancel.won ? 'cancelled' : 'completed');
        if (final) expectWellFormed(final);
      }
    });

    it('lets exactly one of many concurrent compare-and-swaps at one version win', async () => {
      const store = await open();
      const task = await store.create('alice', { ttlMs: null });
      const swaps = await Promise.all(
        Array.from({ length: 50 }, (_, i) => store.compareAndSwap('alice', task.taskId, 1, { statusMessage: `w${i}` })),
      );
      const winners = swaps.filter((swap) => swap.ok);
      expect(winners).toHaveLength(1);
      expect((await store.get('alice', task.taskId))?.version).toBe(2);
    });
  });
}
