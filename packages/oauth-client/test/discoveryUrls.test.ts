import { describe, expect, it } from 'vitest';
import { parseBearerChallenge, resourceMetadataUrls, serverMetadataUrls } from '../src/index.js';

describe('parseBearerChallenge', () => {
  it('A-C1: reads the resource_metadata, scope and error of a Bearer challenge', () => {
    const header =
      'Basic realm="x", Bearer error="insufficient_scope", scope="tasks:read tasks:write", resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp"';
    expect(parseBearerChallenge(header)).toEqual({
      error: 'insufficient_scope',
      scope: 'tasks:read tasks:write',
      resourceMetadata: 'https://a.example/.well-known/oauth-protected-resource/mcp',
    });
  });

  it('stops at the next scheme and returns undefined without a Bearer challenge', () => {
    expect(parseBearerChallenge('Bearer scope="a", DPoP algs="ES256"')).toEqual({
      error: undefined,
      scope: 'a',
      resourceMetadata: undefined,
    });
    expect(parseBearerChallenge('Basic realm="x"')).toBeUndefined();
  });

  it('reads a DPoP challenge when asked for that scheme (RFC 9449 section 7.1)', () => {
    const header = 'Bearer realm="x", DPoP error="use_dpop_nonce", resource_metadata="https://a.example/prm"';
    expect(parseBearerChallenge(header, 'DPoP')).toEqual({
      error: 'use_dpop_nonce',
      scope: undefined,
      resourceMetadata: 'https://a.example/prm',
    });
    expect(parseBearerChallenge('Bearer scope="a"', 'DPoP')).toBeUndefined();
    expect(parseBearerChallenge(null)).toBeUndefined();
  });
});

describe('metadata locations', () => {
  it('A-C1: tries the challenge URL, then the path-aware and root protected-resource URLs (RFC 9728 section 3)', () => {
    const urls = resourceMetadataUrls(new URL('https://mcp.example/tenant/mcp'), 'https://mcp.example/prm');
    expect(urls.map(String)).toEqual([
      'https://mcp.example/prm',
      'https://mcp.example/.well-known/oauth-protected-resource/tenant/mcp',
      'https://mcp.example/.well-known/oauth-protected-resource',
    ]);
  });

  it('A-C2: tries RFC 8414 and OpenID Connect locations for an issuer with a path, in order', () => {
    expect(serverMetadataUrls(new URL('https://id.example/tenant1')).map(String)).toEqual([
      'https://id.example/.well-known/oauth-authorization-server/tenant1',
      'https://id.example/.well-known/openid-configuration/tenant1',
      'https://id.example/tenant1/.well-known/openid-configuration',
    ]);
    expect(serverMetadataUrls(new URL('https://id.example')).map(String)).toEqual([
      'https://id.example/.well-known/oauth-authorization-server',
      'https://id.example/.well-known/openid-configuration',
    ]);
  });
});
