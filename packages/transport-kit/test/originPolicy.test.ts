import { describe, expect, it } from 'vitest';
import { hasDuplicateHeader } from '../src/originPolicy.js';

describe('hasDuplicateHeader', () => {
  it('counts a field in any letter case, and only fields of exactly that name', () => {
    expect(hasDuplicateHeader(['Host', 'a', 'content-type', 'x'], 'host')).toBe(false);
    expect(hasDuplicateHeader(['Host', 'a', 'HOST', 'b'], 'host')).toBe(true);
    expect(hasDuplicateHeader(['host', 'a', 'x-host', 'b', 'Hosts', 'c', 'hOsT', 'd'], 'host')).toBe(true);
    expect(hasDuplicateHeader(['x-host', 'a', 'Hosts', 'b', 'host', 'c'], 'host')).toBe(false);
    expect(hasDuplicateHeader(['Content-Length', '1', 'CONTENT-LENGTH', '2'], 'content-length')).toBe(true);
    // Only ASCII capitals fold: `[` is not a capital `{`, `\r` not a capital `-`.
    expect(hasDuplicateHeader(['x[', 'a', 'x{', 'b'], 'x{')).toBe(false);
    expect(hasDuplicateHeader(['a\rb', 'a', 'a-b', 'b'], 'a-b')).toBe(false);
    // Values are never taken for names.
    expect(hasDuplicateHeader(['host', 'host', 'accept', 'host'], 'host')).toBe(false);
  });
});
