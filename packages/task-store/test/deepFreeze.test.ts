import { describe, expect, it } from 'vitest';
import { deepFreeze } from '../src/deepFreeze.js';
import { isTaskStoreError, TaskStoreError } from '../src/index.js';

describe('deepFreeze', () => {
  it('freezes nested objects and arrays in place and stops at cycles', () => {
    const value: { list: Array<{ n: number }>; self?: unknown } = { list: [{ n: 1 }] };
    value.self = value;
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value) && Object.isFrozen(value.list) && Object.isFrozen(value.list[0])).toBe(true);
  });

  it('passes primitives and undefined through', () => {
    expect(deepFreeze(undefined)).toBeUndefined();
    expect(deepFreeze('x')).toBe('x');
  });
});

describe('TaskStoreError', () => {
  it('carries a code that isTaskStoreError matches', () => {
    const error = new TaskStoreError('task_limit', 'too many', { cause: 'x' });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('TaskStoreError');
    expect(error.cause).toBe('x');
    expect(isTaskStoreError(error)).toBe(true);
    expect(isTaskStoreError(error, 'task_limit')).toBe(true);
    expect(isTaskStoreError(error, 'closed')).toBe(false);
    expect(isTaskStoreError(new Error('plain'))).toBe(false);
  });
});

describe('deepFreeze on hostile input', () => {
  it('freezes a 100,000-deep object without recursion', () => {
    let value: Record<string, unknown> = {};
    const root = value;
    for (let i = 0; i < 100_000; i++) {
      const child = {};
      value.inner = child;
      value = child;
    }
    expect(() => deepFreeze(root)).not.toThrow();
    expect(Object.isFrozen(value)).toBe(true);
  });
});
