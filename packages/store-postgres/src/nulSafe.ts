/**
 * PostgreSQL text and jsonb cannot hold U+0000, which task owners (the anonymous principal) and client payloads
 * may contain. Strings are stored with a reversible escape: U+E000 (private use) introduces U+E001 for itself and
 * U+E002 for U+0000. Applied to a whole JSON text it reaches every key and value.
 */
const ESCAPE = '\uE000';
const ESCAPED_SELF = '\uE000\uE001';
const ESCAPED_NUL = '\uE000\uE002';

/** Escapes a string for a text column. */
export function encodeText(text: string): string {
  if (!text.includes(ESCAPE) && !text.includes('\u0000')) return text;
  return text.replaceAll(ESCAPE, ESCAPED_SELF).replaceAll('\u0000', ESCAPED_NUL);
}

/** Reverses {@link encodeText}. */
export function decodeText(text: string): string {
  if (!text.includes(ESCAPE)) return text;
  return text.replace(/\uE000([\uE001\uE002])/g, (_match, code: string) => (code === '\uE001' ? ESCAPE : '\u0000'));
}

/** Escapes the JSON text of a value (where U+0000 appears as the escape `\u0000`) for a jsonb column. */
export function encodeJson(json: string): string {
  let text = json.includes(ESCAPE) ? json.replaceAll(ESCAPE, ESCAPED_SELF) : json;
  // Escaped backslashes are consumed in pairs, so only a real `\u0000` escape is replaced.
  if (text.includes('\\u0000'))
    text = text.replace(/\\(\\|u0000)/g, (match) => (match === '\\\\' ? match : ESCAPED_NUL));
  return text;
}

/** Reverses {@link encodeJson} on JSON text read back from the database. */
export function decodeJson(text: string): string {
  if (!text.includes(ESCAPE)) return text;
  return text.replace(/\uE000([\uE001\uE002])/g, (_match, code: string) => (code === '\uE001' ? ESCAPE : '\\u0000'));
}
