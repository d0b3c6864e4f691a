/**
 * Remembers the last record the transitions froze, so that a store writing it right away (the common case: a
 * transition computes the next record and the store writes it at once) can skip the deep-freeze check. That check
 * (`Object.isFrozen`) walks every property of the record, about a sixth of the cost of an in-memory write. A
 * record handed in by any other path is deep-frozen as before.
 */
let lastFrozen: object | undefined;

/** Remembers `record`, frozen by the caller (its payloads must be frozen too), as the last record frozen. */
export function rememberFrozenRecord(record: object): void {
  lastFrozen = record;
}

/**
 * True when `record` is the last record remembered by `rememberFrozenRecord` (so it needs no deep-freeze check). A match is
 * forgotten, so the last record is not kept alive after it was written.
 */
export function takeLastFrozenRecord(record: object): boolean {
  if (record !== lastFrozen) return false;
  lastFrozen = undefined;
  return true;
}
