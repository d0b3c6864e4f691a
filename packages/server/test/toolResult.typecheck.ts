/**
 * Type-level tests, compiled by `typecheck` (never run): a tool's result and metadata are the protocol's types, so
 * a typo is a compile error. Each `@ts-expect-error` fails the typecheck if the line below it ever compiles.
 */
import type { CallToolResult, DetailedTask } from '@mcp-tasks/protocol';
import { McpServer, type ToolDefinition, type ToolResult } from '../src/index.js';

const server = new McpServer({ serverInfo: { name: 'typecheck', version: '0.0.0' } });

export const good: ToolResult = {
  content: [
    { type: 'text', text: 'done' },
    { type: 'image', data: 'AAAA', mimeType: 'image/png' },
    { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' },
  ],
  structuredContent: { answer: 42 },
};

// @ts-expect-error a misspelled content block type is rejected
export const typo: ToolResult = { content: [{ type: 'txt', text: 'done' }] };

// @ts-expect-error a text block needs its text
export const noText: ToolResult = { content: [{ type: 'text' }] };

server.tool({
  name: 'typed',
  description: 'returns a typo',
  // @ts-expect-error a handler returning a misspelled block does not compile
  handler: () => ({ content: [{ type: 'txt', text: 'x' }] }),
});

export const badAnnotations: Pick<ToolDefinition, 'annotations'> = {
  // @ts-expect-error annotations are the protocol's ToolAnnotations
  annotations: { readOnlyHint: 'yes' },
};

// The wire result a tool call completes with is the protocol's CallToolResult.
export const wire: CallToolResult = { resultType: 'complete', ...good, content: [...good.content] };

// @ts-expect-error a completed DetailedTask carries its result
export const incomplete: DetailedTask = {
  taskId: 't',
  status: 'completed',
  createdAt: 'c',
  lastUpdatedAt: 'u',
  ttlMs: null,
};
