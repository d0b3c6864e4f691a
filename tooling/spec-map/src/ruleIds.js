// Rule ids as they appear in test and describe titles: S1..S46 and C1..C25 (2026-07-28 + Tasks extension), L-S*,
// L-T*, L-C* (2025 era), A-S*, A-C* (authorization). A range `L-S23..L-S25` (or `S3..S5`) names every id in between.

const ID = /\b(L-[STC]|A-[SC]|[SC])(\d{1,2})(?:\.\.(?:L-[STC]|A-[SC]|[SC])?(\d{1,2}))?\b/g;

/**
 * The rule ids a title names, in order of appearance, without duplicates.
 * @param {string} title
 * @returns {string[]}
 */
export function ruleIdsIn(title) {
  /** @type {string[]} */
  const ids = [];
  for (const match of title.matchAll(ID)) {
    const prefix = match[1] ?? '';
    const first = Number(match[2]);
    const last = match[3] === undefined ? first : Number(match[3]);
    for (let n = first; n <= Math.max(first, last); n += 1) {
      const id = `${prefix}${n}`;
      if (!ids.includes(id)) ids.push(id);
    }
  }
  return ids;
}
