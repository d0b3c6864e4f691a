/**
 * True for a plain JSON-style object: not null, not an array. The one shape check every layer needs before reading
 * fields of an untrusted message (`params`, `_meta`, a response body).
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
