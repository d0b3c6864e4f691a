import { decodeHeaderValue, isRecord, META, type ParamHeader } from '@mcp-tasks/protocol';
import { checkParamHeaders, type HeaderLookup } from './checkParamHeaders.js';
import { mcpNameField } from './routingHeaders.js';

/** The `x-mcp-header` annotations of a tool by name (empty when none or unknown); see `ServerEndpoint`. */
export type ParamHeaderLookup = (toolName: string) => readonly ParamHeader[];

const NO_PARAM_HEADERS: ParamHeaderLookup = () => [];

/**
 * Checks the SEP-2243 headers of one JSON-RPC request against its body, in the order the conformance suite
 * expects:
 * 1. `Mcp-Method` present and equal to `method` (case-sensitive, after trimming);
 * 2. `Mcp-Name` present, well-formed and equal (after Base64-sentinel decoding) to `params.name` / `uri` / `taskId`;
 * 3. for `tools/call`, the `Mcp-Param-*` headers of the tool's `x-mcp-header` arguments (from `paramHeaders`);
 * 4. `MCP-Protocol-Version` present;
 * 5. `MCP-Protocol-Version` equal to `_meta["io.modelcontextprotocol/protocolVersion"]`, checked only when `_meta`
 *    carries both the version and the client capabilities: an incomplete `_meta` is the runtime's -32602, which
 *    comes before a header/meta mismatch.
 *
 * A 2025-era `initialize` (neither `Mcp-Method` nor `MCP-Protocol-Version`) passes through: the runtime answers it
 * with an error naming the versions it speaks, which a legacy client can show its user.
 *
 * Returns the reason for a -32020 HeaderMismatch, or undefined when the headers agree with the body.
 */
export function validateRequestHeaders(
  method: string,
  params: unknown,
  header: HeaderLookup,
  paramHeaders: ParamHeaderLookup = NO_PARAM_HEADERS,
): string | undefined {
  const mcpMethod = header('mcp-method')?.trim();
  if (method === 'initialize' && mcpMethod === undefined && header('mcp-protocol-version') === undefined) {
    return undefined;
  }
  if (mcpMethod === undefined) return 'Missing Mcp-Method header';
  if (mcpMethod !== method) return `Mcp-Method header '${mcpMethod}' does not match body method '${method}'`;

  const nameField = mcpNameField(method);
  if (nameField !== undefined) {
    const raw = header('mcp-name')?.trim();
    if (raw === undefined) return `Missing Mcp-Name header (required for ${method})`;
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return 'Mcp-Name header value is malformed (invalid characters or Base64)';
    const bodyValue = isRecord(params) ? params[nameField] : undefined;
    if (decoded !== bodyValue) return `Mcp-Name header value does not match body params.${nameField}`;
    if (method === 'tools/call') {
      const annotated = paramHeaders(decoded);
      if (annotated.length > 0) {
        const mismatch = checkParamHeaders(annotated, isRecord(params) ? params.arguments : undefined, header);
        if (mismatch !== undefined) return mismatch;
      }
    }
  }

  const version = header('mcp-protocol-version')?.trim();
  if (version === undefined) return 'Missing MCP-Protocol-Version header';
  const meta = isRecord(params) ? params._meta : undefined;
  if (isRecord(meta)) {
    const metaVersion = meta[META.protocolVersion];
    if (typeof metaVersion === 'string' && meta[META.clientCapabilities] !== undefined && metaVersion !== version) {
      return `MCP-Protocol-Version header '${version}' does not match _meta protocol version '${metaVersion}'`;
    }
  }
  return undefined;
}
