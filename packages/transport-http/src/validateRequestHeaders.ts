import { decodeHeaderValue, isRecord, META } from '@mcp-tasks/protocol';
import { mcpNameField } from './routingHeaders.js';

/** Lower-cased inbound headers, as node:http provides them. */
export type InboundHeaders = Readonly<Record<string, string | string[] | undefined>>;

function header(headers: InboundHeaders, name: string): string | undefined {
  const value = headers[name];
  // node:http joins repeated headers with ", " except a few; an array here is never a valid routing value.
  return typeof value === 'string' ? value.trim() : undefined;
}

/**
 * Checks the standard SEP-2243 routing headers of one JSON-RPC request against its body, in the order the
 * conformance suite expects (CONFORMANCE.md 5.3 and 6.1):
 * 1. `Mcp-Method` present and equal to `method` (case-sensitive, after trimming);
 * 2. `Mcp-Name` present, well-formed and equal (after Base64-sentinel decoding) to `params.name` / `uri` / `taskId`;
 * 3. `MCP-Protocol-Version` present;
 * 4. `MCP-Protocol-Version` equal to `_meta["io.modelcontextprotocol/protocolVersion"]`, checked only when `_meta`
 *    carries both the version and the client capabilities: an incomplete `_meta` is the runtime's -32602, which the
 *    suite expects before a header/meta mismatch.
 * `Mcp-Param-*` needs the tool's `x-mcp-header` annotations, so the runtime checks those from `context.headers`.
 *
 * A 2025-era `initialize` (neither `Mcp-Method` nor `MCP-Protocol-Version`) passes through: the runtime answers it
 * with an error naming the versions it speaks, which a legacy client can show its user (versioning.mdx).
 *
 * Returns the reason for a -32020 HeaderMismatch, or undefined when the headers agree with the body.
 */
export function validateRequestHeaders(method: string, params: unknown, headers: InboundHeaders): string | undefined {
  const mcpMethod = header(headers, 'mcp-method');
  if (method === 'initialize' && mcpMethod === undefined && header(headers, 'mcp-protocol-version') === undefined) {
    return undefined;
  }
  if (mcpMethod === undefined) return 'Missing Mcp-Method header';
  if (mcpMethod !== method) return `Mcp-Method header '${mcpMethod}' does not match body method '${method}'`;

  const nameField = mcpNameField(method);
  if (nameField !== undefined) {
    const raw = header(headers, 'mcp-name');
    if (raw === undefined) return `Missing Mcp-Name header (required for ${method})`;
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return 'Mcp-Name header value is malformed (invalid characters or Base64)';
    const bodyValue = isRecord(params) ? params[nameField] : undefined;
    if (decoded !== bodyValue) return `Mcp-Name header value does not match body params.${nameField}`;
  }

  const version = header(headers, 'mcp-protocol-version');
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
