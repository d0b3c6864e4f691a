import { decodeHeaderValue, isRecord, type ParamHeader } from '@mcp-tasks/protocol';

/**
 * Reads one inbound header by its lower-cased name: its value, or undefined when absent (or repeated in a way that
 * cannot be a single routing value). `(name) => request.headers.get(name) ?? undefined` for a fetch `Request`.
 */
export type HeaderLookup = (name: string) => string | undefined;

function valueAt(args: unknown, path: readonly string[]): unknown {
  let current = args;
  for (const key of path) {
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return current;
}

/**
 * Checks the `Mcp-Param-*` headers of a `tools/call` against its arguments (SEP-2243), for the tool's
 * `x-mcp-header` annotations. A present, non-null argument needs its header, decoded (Base64 sentinel, strictly)
 * equal to `String(value)`; a header sent for an absent argument is rejected too. Arguments that are not an object
 * count as absent. Returns the reason for a -32020 HeaderMismatch, or undefined when all agree.
 */
export function checkParamHeaders(
  annotated: readonly ParamHeader[],
  args: unknown,
  header: HeaderLookup,
): string | undefined {
  for (const { name, path } of annotated) {
    const headerName = `mcp-param-${name.toLowerCase()}`;
    const value = valueAt(args, path);
    const raw = header(headerName);
    if (value === undefined || value === null) {
      if (raw !== undefined) return `${headerName} was sent but argument ${path.join('.')} is absent`;
      continue;
    }
    if (raw === undefined) return `${headerName} header is required for argument ${path.join('.')}`;
    const decoded = decodeHeaderValue(raw.trim());
    if (decoded === undefined) return `${headerName} header value is malformed (invalid characters or Base64)`;
    if (decoded !== String(value)) return `${headerName} header value does not match argument ${path.join('.')}`;
  }
  return undefined;
}
