/**
 * @mcp-tasks/oauth-client: MCP authorization for clients, a `fetch` wrapper that discovers, registers, logs in and
 * refreshes OAuth tokens, for `HttpClientTransport`'s `fetch` option.
 *
 * @module @mcp-tasks/oauth-client
 */
export { type AuthorizationRedirect, authorizationUrl } from './authorizationCode.js';
export { type BearerChallenge, parseBearerChallenge } from './challenge.js';
export type { ClientCredentials } from './clientCredentials.js';
export type { DPoPOptions } from './dpop.js';
export type { EnterpriseAuthorization } from './enterprise.js';
export { type OAuthErrorCode, OAuthFlowError } from './errors.js';
export type { FetchLike } from './http.js';
export { type OAuthFetchOptions, withOAuth } from './oauthFetch.js';
export type { ClientIdentity } from './registration.js';
export { discoverResourceMetadata, type ResourceMetadata, resourceMetadataUrls } from './resourceMetadata.js';
export { discoverServerMetadata, serverMetadataUrls } from './serverMetadata.js';
export { MemoryTokenStore, type StoredClient, type StoredTokens, type TokenStore } from './tokenStore.js';
