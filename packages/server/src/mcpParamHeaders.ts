import { collectParamHeaders, decodeHeaderValue, ProtocolError } from '@mcp-tasks/protocol';
import { isJsonObject, type JsonObject } from './jsonRpc.js';

/** One `x-mcp-header` annotation: the header it maps to and the `properties` path of the argument. */
export interface HeaderParam {
  /** Lower-cased full header name, e.g. `mcp-param-region`. */
  readonly header: string;
  readonly path: readonly string[];
}

/**
 * The `x-mcp-header` annotations of an input schema. Throws on one that breaks the spec's constraints (invalid
 * token, duplicate, non-primitive type, unreachable), because a client would drop the whole tool.
 */
export function collectHeaderParams(toolName: string, inputSchema: JsonObject): readonly HeaderParam[] {
  const found = collectParamHeaders(inputSchema);
  if (typeof found === 'string') throw new Error(`Tool ${toolName}: ${found}`);
  return found.map(({ name, path }) => ({ header: `mcp-param-${name.toLowerCase()}`, path }));
}

function valueAt(args: JsonObject, path: readonly string[]): unknown {
  let current: unknown = args;
  for (const key of path) {
    if (!isJsonObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

/**
 * Checks `Mcp-Param-*` headers against the call's arguments (SEP-2243). Runs only when the transport passed
 * headers (Streamable HTTP). A present, non-null argument needs its header, decoded equal to `String(value)`; a
 * header without an argument is rejected too. Any failure is `-32020` HeaderMismatch.
 */
export function checkHeaderParams(
  params: readonly HeaderParam[],
  args: JsonObject,
  headers: Readonly<Record<string, string | undefined>>,
): void {
  for (const param of params) {
    const value = valueAt(args, param.path);
    const raw = headers[param.header];
    const present = value !== undefined && value !== null;
    if (!present) {
      if (raw !== undefined) throw mismatch(`${param.header} was sent but the argument is absent`);
      continue;
    }
    if (raw === undefined) throw mismatch(`${param.header} header is required for argument ${param.path.join('.')}`);
    const decoded = decodeHeaderValue(raw.trim());
    if (decoded === undefined) throw mismatch(`${param.header} is not valid Base64`);
    if (decoded !== String(value)) throw mismatch(`${param.header} does not match the request body`);
  }
}

function mismatch(message: string): ProtocolError {
  return ProtocolError.headerMismatch(`Header mismatch: ${message}`);
}
