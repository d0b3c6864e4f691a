/**
 * The SEP-2243 header value codec: plain header-safe ASCII travels as is, anything else as the Base64 sentinel
 * `=?base64?{base64(utf8)}?=`. Runtime-neutral (btoa/atob and TextEncoder/TextDecoder exist in Node 20 and browsers).
 */

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
/** Canonical Base64 with mandatory padding; Node's Buffer decoder is lenient, so decoding is checked against this. */
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Visible ASCII, space and tab: what RFC 9110 allows in a field value. */
const FIELD_VALUE_CHARS = /^[\t\x20-\x7e]*$/;

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });
const utf8Encoder = new TextEncoder();

function isSentinel(value: string): boolean {
  return (
    value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length &&
    value.startsWith(SENTINEL_PREFIX) &&
    value.endsWith(SENTINEL_SUFFIX)
  );
}

function needsEncoding(value: string): boolean {
  if (value === '') return false;
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  if (first === 0x20 || first === 0x09 || last === 0x20 || last === 0x09) return true;
  // Control characters (including tab inside the value) and anything outside printable ASCII.
  if (!/^[\x20-\x7e]*$/.test(value)) return true;
  return isSentinel(value);
}

/**
 * Encodes a value for `Mcp-Name` or `Mcp-Param-*`: returned unchanged when it is printable ASCII without leading or
 * trailing whitespace and does not itself look like the sentinel; otherwise as `=?base64?…?=` over its UTF-8 bytes.
 */
export function encodeHeaderValue(value: string): string {
  if (!needsEncoding(value)) return value;
  let binary = '';
  for (const byte of utf8Encoder.encode(value)) binary += String.fromCharCode(byte);
  return `${SENTINEL_PREFIX}${btoa(binary)}${SENTINEL_SUFFIX}`;
}

/**
 * Decodes a received `Mcp-Name` or `Mcp-Param-*` value (already trimmed by the HTTP parser). A value wrapped in the
 * exact lowercase sentinel is Base64-decoded strictly (canonical alphabet, correct padding, valid UTF-8); any other
 * value is literal. Returns undefined when the value is malformed or holds characters a field value may not carry.
 */
export function decodeHeaderValue(raw: string): string | undefined {
  if (!isSentinel(raw)) return FIELD_VALUE_CHARS.test(raw) ? raw : undefined;
  const encoded = raw.slice(SENTINEL_PREFIX.length, raw.length - SENTINEL_SUFFIX.length);
  if (!STRICT_BASE64.test(encoded)) return undefined;
  const binary = atob(encoded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    return undefined;
  }
}
