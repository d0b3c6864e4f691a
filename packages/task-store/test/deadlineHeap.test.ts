import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeadlineHeap } from '../src/deadlineHeap.js';

describe('DeadlineHeap', () => {
  it('pops entries in deadline order whatever the insertion order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1_000 }), { maxLength: 200 }), (deadlines) => {
        const heap = new DeadlineHeap();
        deadlines.forEach((deadline, i) => {
          heap.push(deadline, `t${i}`);
        });
        const popped: number[] = [];
        while (heap.size > 0) {
          const peeked = heap.peek();
          const id = heap.pop();
          expect(deadlines[Number(id?.slice(1))]).toBe(peeked);
          popped.push(peeked);
        }
        expect(popped).toEqual([...deadlines].sort((a, b) => a - b));
        expect(heap.peek()).toBe(Number.POSITIVE_INFINITY);
        expect(heap.pop()).toBeUndefined();
      }),
      { seed: 2663 },
    );
  });
});
