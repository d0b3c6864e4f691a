/** Prints a tool's final result for a person (text content as text) or, with `--json`, as raw JSON. */
import type { Writable } from 'node:stream';
import type { CallToolResult } from '@mcp-tasks/protocol';
import { ExitCode } from './cliErrors.js';

/** Writes `result` to `out` and returns the exit code it implies: 1 when `isError`, else 0. */
export function printToolResult(result: CallToolResult, json: boolean, out: Writable): number {
  if (json) {
    out.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    if (result.isError) out.write('tool error:\n');
    const lines = result.content.map(describeBlock);
    if (lines.length === 0 && result.structuredContent !== undefined)
      lines.push(JSON.stringify(result.structuredContent, null, 2));
    for (const line of lines) out.write(`${line}\n`);
  }
  return result.isError ? ExitCode.ToolError : ExitCode.Completed;
}

function describeBlock(block: CallToolResult['content'][number]): string {
  const b = block as { type: string; [key: string]: unknown };
  switch (b.type) {
    case 'text':
      return String(b.text);
    case 'image':
    case 'audio':
      return `[${b.type} ${String(b.mimeType)}, ${String(b.data).length} base64 chars]`;
    case 'resource_link':
      return `[resource ${String(b.uri)}]`;
    case 'resource': {
      const resource = b.resource as { uri?: unknown; text?: unknown };
      return typeof resource.text === 'string' ? resource.text : `[resource ${String(resource.uri)}]`;
    }
    default:
      return JSON.stringify(b);
  }
}
