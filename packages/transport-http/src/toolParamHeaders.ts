import { collectParamHeaders, encodeHeaderValue, isRecord, type ParamHeader } from '@mcp-tasks/protocol';

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
