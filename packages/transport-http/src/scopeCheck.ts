import { ErrorCode, isRecord } from '@mcp-tasks/protocol';
import { errorReply, type HttpReply } from './httpReply.js';

/**
 * What an authentication hook may answer instead of a bare principal: the principal and the scopes its access
 * token grants, so tools registered with required scopes can be refused with 403 `insufficient_scope`.
 */
export interface AuthenticatedPrincipal {
  /** The identity tasks are bound to (for OAuth: issuer and subject together). */
  readonly principal: string;
  /**
   * The scopes the request's token grants. Undefined means scopes are not known (a static development token): tools'
   * required scopes are then not checked.
   */
  readonly scopes?: readonly string[] | undefined;
}

/** The required scopes of a tool by name; empty when it needs none or is unknown. */
export type RequiredScopesLookup = (toolName: string) => readonly string[];

/** The `WWW-Authenticate` value of a 403 for a request that needs `scope` (space-separated). */
export type ScopeChallenge = (scope: string) => string;

/** RFC 6750 section 3 without `resource_metadata`: the fallback when no challenge builder is configured. */
export const defaultScopeChallenge: ScopeChallenge = (scope) =>
  `Bearer error="insufficient_scope", scope="${scope.replace(/["\\]/g, '\\$&')}"`;

/**
 * The 403 for a `tools/call` whose token lacks a scope the tool requires, or undefined when it may go on. The
 * challenge names the granted scopes together with the required ones (the spec's recommended approach), so a
 * client stepping up does not lose what it already has.
 */
export function refuseMissingScopes(
  message: unknown,
  granted: readonly string[],
  required: RequiredScopesLookup,
  challenge: ScopeChallenge,
): HttpReply | undefined {
  if (!isRecord(message) || message.method !== 'tools/call' || !isRecord(message.params)) return undefined;
  const name = message.params.name;
  if (typeof name !== 'string') return undefined;
  const needed = required(name);
  const missing = needed.filter((scope) => !granted.includes(scope));
  if (missing.length === 0) return undefined;
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
  const scope = [...new Set([...granted, ...needed])].join(' ');
  return errorReply(
    403,
    ErrorCode.InvalidRequest,
    `Forbidden: the tool ${name} needs the scope ${missing.join(' ')}, which the access token does not grant`,
    id,
    { 'www-authenticate': challenge(scope) },
  );
}
