import { encodeHeaderValue } from './headerValue.js';

/** RFC 9110 `tchar`: what an `x-mcp-header` name may consist of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);
/** Keywords whose values are instance data, not subschemas: an `x-mcp-header` key inside them is just data. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['const', 'default', 'enum', 'examples']);

/** One annotated argument: the `properties` path to its value and the header name suffix. */
interface ParamHeader {
  readonly path: readonly string[];
  readonly name: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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

/**
 * What the HTTP client learns from `tools/list`: which arguments of which tool are mirrored into `Mcp-Param-*`
 * headers. Tools with invalid annotations are dropped from the list (a MUST for HTTP clients) and reported.
 */
export class ToolParamHeaders {
  readonly #byTool = new Map<string, readonly ParamHeader[]>();

  /**
   * Records the annotations of every tool in a `tools/list` result and returns the tools to keep (the same array
   * when none was rejected). `warn` receives one message per rejected tool.
   */
  observe(tools: readonly unknown[], warn: (message: string) => void): readonly unknown[] {
    let kept: unknown[] | undefined;
    tools.forEach((tool, index) => {
      const name = isRecord(tool) ? tool.name : undefined;
      const headers = isRecord(tool) ? collectParamHeaders(tool.inputSchema) : 'not an object';
      if (typeof headers === 'string') {
        warn(`Dropping tool ${String(name)} from tools/list: ${headers}`);
        kept ??= tools.slice(0, index);
        return;
      }
      if (typeof name === 'string') {
        if (headers.length > 0) this.#byTool.set(name, headers);
        else this.#byTool.delete(name);
      }
      kept?.push(tool);
    });
    return kept ?? tools;
  }

  /** The `Mcp-Param-*` headers for a call of `tool` with `args`; values absent or null produce no header. */
  headersFor(tool: string, args: unknown): [string, string][] {
    const annotated = this.#byTool.get(tool);
    if (annotated === undefined) return [];
    const out: [string, string][] = [];
    for (const { path, name } of annotated) {
      let value: unknown = args;
      for (const key of path) value = isRecord(value) ? value[key] : undefined;
      if (typeof value === 'string') out.push([`mcp-param-${name}`, encodeHeaderValue(value)]);
      else if (typeof value === 'number' || typeof value === 'boolean') out.push([`mcp-param-${name}`, String(value)]);
    }
    return out;
  }
}
