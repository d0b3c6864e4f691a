/**
 * @mcp-tasks/oauth-resource-server: MCP authorization for servers, RFC 9728 metadata, Bearer challenges, and JWT
 * access-token verification against the issuer's keys.
 *
 * @module @mcp-tasks/oauth-resource-server
 */
export { type BearerAuthenticateOptions, bearerAuthenticate, type HeaderCarrier } from './bearerAuthenticate.js';
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
