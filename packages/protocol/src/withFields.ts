/**
 * A new object with `base`'s own enumerable properties, then `fields`' on top: the same object as
 * `{ ...base, ...fields }`, neither argument changed.
 *
 * Why it exists: on Node 20 (V8 11.3) a spread followed by more properties (`{ ...result, resultType }`) takes a
 * slow path that costs about 0.5–1 µs per object, ten times `Object.assign`; every response of a hot path used to
 * pay it once or twice. `Object.assign` would call the `__proto__` setter for an own `__proto__` key (which
 * `JSON.parse` can produce) where a spread defines a plain property, so such objects keep the spread.
 */
export function withFields<B extends object, F extends object>(base: B, fields: F): Omit<B, keyof F> & F {
  if (Object.hasOwn(base, '__proto__') || Object.hasOwn(fields, '__proto__')) return { ...base, ...fields };
  return Object.assign({}, base, fields);
}
