import { META, withFields } from '@mcp-tasks/protocol';
import type { JsonObject } from './jsonRpc.js';

/**
 * Adds `serverInfo` to a result's `_meta` without touching the result (it may be shared or the tool's own).
 * A result that already carries the frozen server `_meta` (built with it, like `tasks/get`) is used as it is.
 */
export function stampServerInfo(result: JsonObject, serverMeta: JsonObject): JsonObject {
  const meta = result._meta;
  if (meta === serverMeta) return result;
  if (typeof meta === 'object' && meta !== null) {
    return withFields(result, { _meta: withFields(meta, { [META.serverInfo]: serverMeta[META.serverInfo] }) });
  }
  return withFields(result, { _meta: serverMeta });
}
