import { describe, expect, it } from 'vitest';
import { createOriginCheck, hasDuplicateHeader } from '../src/originPolicy.js';

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

describe('createOriginCheck', () => {
  it('answers a repeated request like the first, and never carries a verdict over to another host, address or Origin', () => {
    const check = createOriginCheck();
    const loopback = (host: string | undefined, origin?: string) => ({ host, origin, localAddress: '127.0.0.1' });
    for (let round = 0; round < 2; round++) {
      expect(check(loopback('127.0.0.1:3000'))).toBe(true);
      // Same Host string, other conditions: each judged on its own.
      expect(check(loopback('127.0.0.1:3000', 'https://evil.example'))).toBe(false);
      expect(check({ host: 'evil.example', origin: undefined, localAddress: '127.0.0.1' })).toBe(false);
      expect(check(loopback(undefined))).toBe(false);
      expect(check(loopback('127.0.0.1:3000'))).toBe(true);
    }
    // A host accepted on a public address is not thereby accepted on loopback.
    expect(check({ host: 'mcp.example', origin: undefined, localAddress: '10.0.0.5' })).toBe(true);
    expect(check({ host: 'mcp.example', origin: undefined, localAddress: '10.0.0.5' })).toBe(true);
    expect(check({ host: 'mcp.example', origin: undefined, localAddress: '127.0.0.1' })).toBe(false);
    expect(check({ host: 'mcp.example', origin: undefined, localAddress: undefined })).toBe(true);
    expect(check({ host: 'mcp.example', origin: undefined, localAddress: '::1' })).toBe(false);
  });
});
