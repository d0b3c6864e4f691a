import { collectParamHeaders, type ParamHeader } from '@mcp-tasks/protocol';
import type { JsonObject } from './jsonRpc.js';

/**
 * The `x-mcp-header` annotations of an input schema, which the Streamable HTTP binding checks against each call's
 * `Mcp-Param-*` headers (see `McpServer.toolParamHeaders`). Throws on one that breaks the spec's constraints
 * (invalid token, duplicate, non-primitive type, unreachable), because a client would drop the whole tool.
 */
export function collectHeaderParams(toolName: string, inputSchema: JsonObject): readonly ParamHeader[] {
  const found = collectParamHeaders(inputSchema);
  if (typeof found === 'string') throw new Error(`Tool ${toolName}: ${found}`);
  return found;
}
