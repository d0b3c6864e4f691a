import { collectParamHeaders, encodeHeaderValue, isRecord, type ParamHeader } from '@mcp-tasks/protocol';

/**
 * What the HTTP client knows of the servers' tools: which arguments of which tool are mirrored into `Mcp-Param-*`
 * headers, learned from `tools/list` results. Tools with invalid annotations are dropped from the list (a MUST for
 * HTTP clients) and reported.
 */
export class ToolParamHeaders {
  readonly #byTool = new Map<string, readonly ParamHeader[]>();
  /** True once a whole listing (every page) was seen since the last invalidation. */
  #complete = false;

  /**
   * Records the annotations of every tool in one `tools/list` page and returns the tools to keep (the same array
   * when none was rejected). `warn` receives one message per rejected tool.
   */
  observe(tools: readonly unknown[], warn: (message: string) => void): readonly unknown[] {
    let kept: unknown[] | undefined;
    tools.forEach((tool, index) => {
      const name = isRecord(tool) ? tool.name : undefined;
      const headers = isRecord(tool) ? collectParamHeaders(tool.inputSchema) : 'not an object';
      if (typeof headers === 'string') {
        warn(`Dropping tool ${String(name)} from tools/list: ${headers}`);
        // A rejected tool is not to be called; if it is anyway, it gets no Mcp-Param headers.
        if (typeof name === 'string') this.#byTool.set(name, []);
        kept ??= tools.slice(0, index);
        return;
      }
      if (typeof name === 'string') this.#byTool.set(name, headers);
      kept?.push(tool);
    });
    return kept ?? tools;
  }

  /** Marks the tools observed since the last invalidation as the server's whole list. */
  markComplete(): void {
    this.#complete = true;
  }

  /** True when a call of `tool` needs a listing first: it was never listed and no complete listing was seen. */
  needsListing(tool: string): boolean {
    return !this.#complete && !this.#byTool.has(tool);
  }

  /** Forgets everything (the server's tools changed); the next call of any tool lists them again. */
  invalidate(): void {
    this.#byTool.clear();
    this.#complete = false;
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
