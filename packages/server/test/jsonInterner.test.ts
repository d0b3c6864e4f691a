import { describe, expect, it } from 'vitest';
import { JsonInterner } from '../src/jsonInterner.js';

describe('JsonInterner', () => {
  it('hands out one deep-frozen copy per distinct value and leaves the original alone', () => {
    const interner = new JsonInterner();
    const first = { a: { b: [1, 2] }, c: 'x' };
    const shared = interner.intern(first);
    expect(shared).toEqual(first);
    expect(shared).not.toBe(first);
    expect(Object.isFrozen(first)).toBe(false);
    expect(Object.isFrozen(shared)).toBe(true);
    expect(Object.isFrozen(shared.a)).toBe(true);
    expect(Object.isFrozen((shared.a as { b: unknown[] }).b)).toBe(true);
    expect(interner.intern({ a: { b: [1, 2] }, c: 'x' })).toBe(shared);
    expect(interner.intern({ a: { b: [1, 3] }, c: 'x' })).not.toBe(shared);
  });

  it('keeps at most `max` values, dropping the oldest first', () => {
    const interner = new JsonInterner(2);
    const one = interner.intern({ n: 1 });
    const two = interner.intern({ n: 2 });
    interner.intern({ n: 3 });
    expect(interner.intern({ n: 2 })).toBe(two);
    expect(interner.intern({ n: 1 })).not.toBe(one);
  });

  it('returns a value it cannot or will not share as it is', () => {
    const interner = new JsonInterner();
    const large = { text: 'x'.repeat(5000) };
    expect(interner.intern(large)).toBe(large);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(interner.intern(cyclic)).toBe(cyclic);
  });
});
