import * as oauth from 'oauth4webapi';
import { OAuthFlowError } from './errors.js';
import type { FetchLike } from './http.js';

/** The well-known URLs of an issuer's metadata, in the spec's order (RFC 8414 then OpenID Connect Discovery). */
export function serverMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/$/, '');
  if (path === '') {
    return [
      new URL('/.well-known/oauth-authorization-server', issuer.origin),
      new URL('/.well-known/openid-configuration', issuer.origin),
    ];
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin),
    new URL(`/.well-known/openid-configuration${path}`, issuer.origin),
    new URL(`${path}/.well-known/openid-configuration`, issuer.origin),
  ];
}

/**
 * Finds and validates the metadata of `issuer`. oauth4webapi checks that the document's `issuer` is exactly the
 * one the URL was built from (RFC 8414 section 3.3), so a poisoned document is refused rather than used.
 * With `legacy` (a 2025-03-26 server without protected-resource metadata) and no document at all, the default
 * endpoints at the issuer's root stand in.
 */
export async function discoverServerMetadata(
  fetchFn: FetchLike,
  issuer: string,
  legacy: boolean,
  timeoutMs: number,
): Promise<oauth.AuthorizationServer> {
  const issuerUrl = new URL(issuer);
  for (const url of serverMetadataUrls(issuerUrl)) {
    let response: Response;
    try {
      response = await fetchFn(url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      throw new OAuthFlowError('metadata', `Cannot reach authorization server metadata at ${url.href}`, { cause });
    }
    if (response.status >= 400 && response.status < 500) continue;
    try {
      return await oauth.processDiscoveryResponse(issuerUrl, response);
    } catch (cause) {
      const detail = cause instanceof Error ? cause.message : String(cause);
      const code = /issuer/i.test(detail) ? 'issuer_mismatch' : 'metadata';
      throw new OAuthFlowError(code, `Authorization server metadata at ${url.href} is unusable: ${detail}`, { cause });
    }
  }
  if (!legacy) throw new OAuthFlowError('metadata', `No authorization server metadata found for ${issuer}`);
  return {
    issuer: issuerUrl.origin,
    authorization_endpoint: new URL('/authorize', issuerUrl.origin).href,
    token_endpoint: new URL('/token', issuerUrl.origin).href,
    registration_endpoint: new URL('/register', issuerUrl.origin).href,
  };
}
