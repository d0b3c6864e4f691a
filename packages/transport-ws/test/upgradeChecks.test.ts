import { checkOrigin } from '@mcp-tasks/transport-kit';
import { describe, expect, it } from 'vitest';
import { tokenFromUpgrade } from '../src/subprotocol.js';

describe('checkOrigin', () => {
  const local = (host: string | undefined, origin?: string) => ({ host, origin, localAddress: '127.0.0.1' });

  it('allows requests without Origin, and same-origin ones, on loopback hosts', () => {
    expect(checkOrigin(local('127.0.0.1:8080'))).toBe(true);
    expect(checkOrigin(local('localhost:8080', 'http://localhost:8080'))).toBe(true);
    expect(checkOrigin(local('[::1]:8080', 'http://[::1]:8080'))).toBe(true);
  });

  it('rejects a rebound host name on a loopback connection and cross-origin pages', () => {
    expect(checkOrigin(local('evil.example:8080', 'http://evil.example:8080'))).toBe(false);
    expect(checkOrigin(local(undefined))).toBe(false);
    expect(checkOrigin(local('localhost:8080', 'https://evil.example'))).toBe(false);
    expect(checkOrigin(local('localhost:8080', 'null'))).toBe(false);
  });

  it('accepts listed origins and hosts, and any host on non-loopback connections by default', () => {
    const policy = { allowedOrigins: ['https://App.example'] };
    expect(checkOrigin(local('localhost:1', 'https://app.example'), policy)).toBe(true);
    expect(checkOrigin({ host: 'mcp.example', origin: undefined, localAddress: '10.0.0.5' })).toBe(true);
    expect(
      checkOrigin(
        { host: 'other.example', origin: undefined, localAddress: '10.0.0.5' },
        { allowedHosts: ['mcp.example'] },
      ),
    ).toBe(false);
  });
});

describe('tokenFromUpgrade', () => {
  it('prefers the Authorization bearer token, then the mcp.bearer. subprotocol entry', () => {
    expect(tokenFromUpgrade('Bearer abc', ['mcp', 'mcp.bearer.xyz'])).toBe('abc');
    expect(tokenFromUpgrade('bearer  abc ', [])).toBe('abc');
    expect(tokenFromUpgrade(undefined, ['mcp', 'mcp.bearer.xyz'])).toBe('xyz');
    expect(tokenFromUpgrade('Basic dXNlcg==', ['mcp'])).toBeUndefined();
    expect(tokenFromUpgrade(undefined, ['mcp', 'mcp.bearer.'])).toBeUndefined();
  });
});
