/**
 * @mcp-tasks/oauth-resource-server: MCP authorization for servers, RFC 9728 metadata, Bearer challenges, JWT
 * access-token verification against the issuer's keys and RFC 7662 introspection of opaque tokens.
 *
 * @module @mcp-tasks/oauth-resource-server
 */
export {
  type BearerAuthenticateOptions,
  type BearerIdentity,
  type BearerRefusal,
  bearerAuthenticate,
  type HeaderCarrier,
} from './bearerAuthenticate.js';
export {
  createDPoPReplayGuard,
  DEFAULT_DPOP_REPLAY_ENTRIES,
  type DPoPReplayGuard,
  type DPoPReplayGuardOptions,
} from './dpopReplayGuard.js';
export type { IntrospectionCacheOptions } from './introspectionCache.js';
export { createIntrospectionVerifier, type IntrospectionVerifierOptions } from './introspectionVerifier.js';
export {
  createJwtVerifier,
  type JwtVerifierOptions,
  principalOf,
  TokenRejectedError,
  type VerifiedToken,
} from './jwtVerifier.js';
export {
  bearerChallenge,
  type ChallengeOptions,
  type ResourceMetadataOptions,
  resourceMetadataDocument,
  resourceMetadataUrl,
} from './metadata.js';
