import { describe, expect, it } from 'vitest';
import { withFields } from '../src/index.js';

describe('withFields', () => {
  it('equals the spread { ...base, ...fields }, key order included, and changes neither argument', () => {
    const base = { content: [1], resultType: 'input_required', isError: false };
    const fields = { resultType: 'complete', _meta: { a: 1 } };
    const out = withFields(base, fields);
    expect(out).toEqual({ ...base, ...fields });
    expect(Object.keys(out)).toEqual(Object.keys({ ...base, ...fields }));
    expect(out).not.toBe(base);
    expect(base).toEqual({ content: [1], resultType: 'input_required', isError: false });
    expect(out.content).toBe(base.content);
  });

  it('copies own enumerable properties only, as a spread does', () => {
    const base = Object.create({ inherited: true }) as Record<string, unknown>;
    base.own = 1;
    Object.defineProperty(base, 'hidden', { value: 2, enumerable: false });
    expect(withFields(base, { added: 3 })).toEqual({ own: 1, added: 3 });
  });

  it('keeps an own __proto__ key (from JSON.parse) a plain property and never changes the prototype', () => {
    const base = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}') as Record<string, unknown>;
    const out = withFields(base, { y: 2 }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(out.polluted).toBeUndefined();
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(Object.keys(out)).toEqual(['__proto__', 'x', 'y']);
  });
});
