import { ErrorCode } from '@mcp-tasks/protocol';
import { findInsufficientScope, type RequiredScopesLookup } from '@mcp-tasks/transport-kit';
import { errorReply, type HttpReply } from './httpReply.js';

export type { AuthenticatedPrincipal, RequiredScopesLookup } from '@mcp-tasks/transport-kit';

/** The `WWW-Authenticate` value of a 403 for a request that needs `scope` (space-separated). */
export type ScopeChallenge = (scope: string) => string;

/** RFC 6750 section 3 without `resource_metadata`: the fallback when no challenge builder is configured. */
export const defaultScopeChallenge: ScopeChallenge = (scope) =>
  `Bearer error="insufficient_scope", scope="${scope.replace(/["\\]/g, '\\$&')}"`;

/**
 * The 403 for a `tools/call` whose token lacks a scope the tool requires, or undefined when it may go on. The
 * challenge names the granted scopes together with the required ones (the spec's recommended approach), so a
 * client stepping up does not lose what it already has; the body's `-32600` error carries the same in `data`
 * (`error`, `scope`, `missingScopes`), as the WebSocket binding answers it.
 */
export function refuseMissingScopes(
  message: unknown,
  granted: readonly string[],
  required: RequiredScopesLookup,
  challenge: ScopeChallenge,
): HttpReply | undefined {
  const refused = findInsufficientScope(message, granted, required);
  if (refused === undefined) return undefined;
  return errorReply(
    403,
    ErrorCode.InvalidRequest,
    refused.message,
    refused.id,
    { 'www-authenticate': challenge(refused.data.scope) },
    refused.data,
  );
}
