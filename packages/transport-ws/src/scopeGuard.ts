import { ErrorCode, type MessageHandler, type ServerEndpoint } from '@mcp-tasks/protocol';
import { findInsufficientScope, type RequiredScopesLookup } from '@mcp-tasks/transport-kit';

/** The handler of an endpoint, and its tools' required scopes when it declares them. */
export function endpointParts(endpoint: ServerEndpoint | MessageHandler): {
  readonly handler: MessageHandler;
  readonly requiredScopes: RequiredScopesLookup | undefined;
} {
  if (typeof endpoint === 'function') return { handler: endpoint, requiredScopes: undefined };
  const required = endpoint.toolRequiredScopes;
  return {
    handler: endpoint.handle,
    requiredScopes: required === undefined ? undefined : (name) => required.call(endpoint, name),
  };
}

/**
 * The handler of one socket whose token grants `granted`: a `tools/call` of a tool requiring a scope it lacks is
 * answered here, before the runtime sees it (so no tool runs and no task exists), with `-32600` and `data`
 * `{ error: 'insufficient_scope', scope, missingScopes }`, plus `wwwAuthenticate` (the challenge an HTTP client
 * would get in the 403's header, e.g. with `resource_metadata`) when `challenge` is given. The spec defines no
 * error for this outside HTTP; this is the HTTP binding's 403 body carried as a JSON-RPC error.
 */
export function guardScopes(
  handler: MessageHandler,
  granted: readonly string[] | undefined,
  required: RequiredScopesLookup | undefined,
  challenge: ((scope: string) => string) | undefined,
): MessageHandler {
  if (granted === undefined || required === undefined) return handler;
  return (message, context) => {
    const refused = findInsufficientScope(message, granted, required);
    if (refused === undefined) return handler(message, context);
    const data =
      challenge === undefined ? refused.data : { ...refused.data, wwwAuthenticate: challenge(refused.data.scope) };
    const error = { code: ErrorCode.InvalidRequest, message: refused.message, data };
    // Without a valid id (a notification, which the session never answers) the refusal still keeps the tool from running.
    return Promise.resolve(
      refused.id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id: refused.id, error },
    );
  };
}
