/** Median, min and max of repeated measurements (the issue asks for median of >= 3 with min–max shown). */
export function summarize(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], values };
}

/** The p-th percentile (0..100) of a list of numbers, nearest-rank. */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = values instanceof Float64Array ? values.slice().sort() : [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

/** Formats a rate compactly: 41,234 → "41.2k". */
export function formatRate(value) {
  if (!Number.isFinite(value)) return 'n/a';
  if (value >= 1e6) return `${(value / 1e6).toFixed(2)}M`;
  if (value >= 1e3) return `${(value / 1e3).toFixed(1)}k`;
  return value.toFixed(0);
}

/** "median (min–max)" for a summary, using `format` for each number. */
export function formatSummary(summary, format = formatRate) {
  return `${format(summary.median)} (${format(summary.min)}–${format(summary.max)})`;
}
