/**
 * Formats epoch milliseconds as ISO 8601, reusing the last string while the millisecond is unchanged: formatting
 * costs about half a microsecond, and records written in the same millisecond then share one string.
 */
export function createIsoFormatter(): (ms: number) => string {
  let lastMs = Number.NaN;
  let lastIso = '';
  return (ms) => {
    if (ms !== lastMs) {
      lastIso = new Date(ms).toISOString();
      lastMs = ms;
    }
    return lastIso;
  };
}
