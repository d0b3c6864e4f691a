/**
 * @mcp-tasks/oidc-harness: a real OAuth 2.1 / OpenID Connect authorization server (oidc-provider) on 127.0.0.1, with
 * two users and a consent page a test drives over HTTP.
 *
 * @module @mcp-tasks/oidc-harness
 */
export type { ConsentChoice } from './consentDriver.js';
export {
  type HarnessTokens,
  type OidcHarness,
  type OidcHarnessOptions,
  startOidcHarness,
} from './oidcHarness.js';
export { isUser, USERS, type UserName } from './users.js';
