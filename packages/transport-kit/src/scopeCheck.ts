import { isRecord } from '@mcp-tasks/protocol';

/**
 * What an authentication hook may answer instead of a bare principal: the principal and the scopes its access
 * token grants, so tools registered with required scopes can be refused for `insufficient_scope`.
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

/** A `tools/call` whose token lacks scopes its tool requires, as {@link findInsufficientScope} reports it. */
export interface InsufficientScope {
  /** The request's id, when it has a valid one. */
  readonly id: string | number | undefined;
  /** The human-readable refusal, naming the tool and the missing scopes. */
  readonly message: string;
  /**
   * The `data` of the JSON-RPC error, the same on every transport: `error` is RFC 6750's `insufficient_scope`,
   * `scope` the granted and required scopes together (space-separated, what a client stepping up should ask for),
   * `missingScopes` the required ones the token lacks.
   */
  readonly data: {
    /** Always `insufficient_scope` (RFC 6750). */
    readonly error: 'insufficient_scope';
    /** The granted and required scopes together, space-separated: what a client stepping up asks for. */
    readonly scope: string;
    /** The required scopes the token lacks. */
    readonly missingScopes: readonly string[];
  };
}

/**
 * The refusal of a `tools/call` whose token lacks a scope the tool requires, or undefined when it may go on (any
 * other message, or every required scope granted). The scope to ask for names the granted scopes together with the
 * required ones (the authorization spec's recommended approach), so a client stepping up keeps what it has.
 */
export function findInsufficientScope(
  message: unknown,
  granted: readonly string[],
  required: RequiredScopesLookup,
): InsufficientScope | undefined {
  if (!isRecord(message) || message.method !== 'tools/call' || !isRecord(message.params)) return undefined;
  const name = message.params.name;
  if (typeof name !== 'string') return undefined;
  const needed = required(name);
  const missing = needed.filter((scope) => !granted.includes(scope));
  if (missing.length === 0) return undefined;
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : undefined;
  return {
    id,
    message: `Forbidden: the tool ${name} needs the scope ${missing.join(' ')}, which the access token does not grant`,
    data: {
      error: 'insufficient_scope',
      scope: [...new Set([...granted, ...needed])].join(' '),
      missingScopes: missing,
    },
  };
}
