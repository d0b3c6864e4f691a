import { describe, expect, it } from 'vitest';
import { decodeHeaderValue, encodeHeaderValue } from '../src/index.js';

describe('encodeHeaderValue (streamable-http.mdx "Value Encoding")', () => {
  it.each([
    ['us-west1', 'us-west1'],
    ['us west 1', 'us west 1'],
    ['', ''],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    [' us-west1', '=?base64?IHVzLXdlc3Qx?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['line1\r\nline2', '=?base64?bGluZTENCmxpbmUy?='],
    ['\tindented', '=?base64?CWluZGVudGVk?='],
    ['日本語', '=?base64?5pel5pys6Kqe?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
  ])('%j → %s', (value, encoded) => {
    expect(encodeHeaderValue(value)).toBe(encoded);
    expect(decodeHeaderValue(encoded)).toBe(value);
  });
});

describe('decodeHeaderValue (strict)', () => {
  it.each([
    ['=?base64?SGVsbG8=?=', 'Hello'],
    ['SGVsbG8=', 'SGVsbG8='],
    ['=?base64?SGVsbG8=', '=?base64?SGVsbG8='],
    ['=?BASE64?SGVsbG8=?=', '=?BASE64?SGVsbG8=?='],
  ])('%s decodes to %s', (raw, value) => {
    expect(decodeHeaderValue(raw)).toBe(value);
  });

  it.each([
    ['bad padding', '=?base64?SGVsbG8?='],
    ['bad alphabet', '=?base64?SGVs!!!bG8=?='],
    ['URL-safe alphabet', '=?base64?-_-_?='],
    ['invalid UTF-8', `=?base64?${btoa('\xff\xfe')}?=`],
    ['non-ASCII literal', 'h\u00e9llo'],
    ['control character literal', 'a\u0001b'],
  ])('rejects %s', (_why, raw) => {
    expect(decodeHeaderValue(raw)).toBeUndefined();
  });
});
