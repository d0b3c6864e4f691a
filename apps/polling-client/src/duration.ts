/** Durations as people read them, for `status` and friends. */

const UNITS: readonly (readonly [string, number])[] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1000],
];

/**
 * `ms` in its two largest units, e.g. `1 h`, `1 h 30 min`, `45 s`, `250 ms`. Whole units only; the remainder
 * below the second unit is dropped (a TTL is a bound, not a stopwatch).
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return `${ms} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of UNITS) {
    if (parts.length === 2) break;
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) parts.push(`${count} ${unit}`);
    else if (parts.length > 0) break;
  }
  return parts.join(' ');
}
