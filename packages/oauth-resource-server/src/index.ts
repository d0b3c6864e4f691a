/** MCP authorization for servers: RFC 9728 metadata, Bearer challenges, and JWT access-token verification. */
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
