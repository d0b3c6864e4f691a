import { isRecord } from './isRecord.js';
import type { ParamHeader } from './transport.js';

/**
 * SEP-2243 `x-mcp-header` annotations: which tool arguments are mirrored into `Mcp-Param-*` HTTP headers. Shared by
 * the server runtime (which validates the headers against the body) and HTTP clients (which send them).
 */

/** RFC 9110 `tchar`: what an `x-mcp-header` name may consist of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);
/** Keywords whose values are instance data, not subschemas: an `x-mcp-header` key inside them is just data. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['const', 'default', 'enum', 'examples']);

/**
 * Collects a tool's `x-mcp-header` annotations, or returns the reason the tool must be rejected (streamable-http.mdx
 * "Schema Extension"): empty or non-token name, duplicate name (case-insensitive), non-primitive property type, or
 * an annotation not reachable from the root through `properties` keys alone.
 */
export function collectParamHeaders(inputSchema: unknown): readonly ParamHeader[] | string {
  const found: ParamHeader[] = [];
  const seen = new Set<string>();
  let problem: string | undefined;
  const walk = (node: unknown, path: readonly string[] | null): void => {
    if (problem !== undefined) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, null);
      return;
    }
    if (!isRecord(node)) return;
    if (Object.hasOwn(node, 'x-mcp-header')) {
      const name = node['x-mcp-header'];
      if (path === null || path.length === 0) problem = 'x-mcp-header on a property not reachable through properties';
      else if (typeof name !== 'string' || !TOKEN.test(name)) problem = `invalid x-mcp-header name ${String(name)}`;
      else if (!PRIMITIVE_TYPES.has(node.type)) problem = `x-mcp-header '${name}' on a non-primitive property`;
      else if (seen.has(name.toLowerCase())) problem = `duplicate x-mcp-header '${name}'`;
      else {
        seen.add(name.toLowerCase());
        found.push({ path, name });
      }
    }
    for (const [key, child] of Object.entries(node)) {
      if (DATA_KEYWORDS.has(key)) continue;
      if (key === 'properties' && isRecord(child) && path !== null) {
        for (const [prop, sub] of Object.entries(child)) walk(sub, [...path, prop]);
      } else {
        walk(child, null);
      }
    }
  };
  walk(inputSchema, []);
  return problem ?? found;
}
