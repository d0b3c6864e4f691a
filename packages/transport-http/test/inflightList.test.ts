import { describe, expect, it } from 'vitest';
import { InflightList } from '../src/inflightList.js';

describe('InflightList', () => {
  it('adds, finds the newest entry of a key, removes idempotently and counts', () => {
    const list = new InflightList<string, number>();
    const removeA = list.add('a', 1);
    list.add('b', undefined);
    const removeC = list.add('c', 1);
    expect(list.size).toBe(3);
    expect(list.find(1)).toBe('c');
    removeC();
    removeC();
    expect(list.size).toBe(2);
    expect(list.find(1)).toBe('a');
    removeA();
    expect(list.find(1)).toBeUndefined();
    expect(list.values()).toEqual(['b']);
  });

  it('lists newest first in a copy the caller may remove entries while walking', () => {
    const list = new InflightList<string, number>();
    const removers = new Map<string, () => void>();
    for (const [value, key] of [
      ['x', 1],
      ['y', 2],
      ['z', 3],
    ] as const)
      removers.set(value, list.add(value, key));
    const seen: string[] = [];
    for (const value of list.values()) {
      seen.push(value);
      removers.get(value)?.();
    }
    expect(seen).toEqual(['z', 'y', 'x']);
    expect(list.size).toBe(0);
    expect(list.values()).toEqual([]);
  });

  it('removes from the middle, the head and the tail without losing the others', () => {
    const list = new InflightList<number, number>();
    const remove = [1, 2, 3, 4].map((n) => list.add(n, n));
    remove[1]?.();
    expect(list.values()).toEqual([4, 3, 1]);
    remove[3]?.();
    expect(list.values()).toEqual([3, 1]);
    remove[0]?.();
    expect(list.values()).toEqual([3]);
    expect(list.find(3)).toBe(3);
  });
});
