import { z } from 'zod';
import { ContentBlockSchema } from './content.js';
import { JSONRPCRequestSchema, JSONRPCResultResponseSchema } from './jsonrpc.js';
import { ResultSchema } from './meta.js';
import { InputRequiredResultSchema, InputResponseRequestParamsSchema } from './mrtr.js';
import { CacheableResultSchema, PaginatedRequestParamsSchema } from './pagination.js';
import { ToolSchema } from './tool.js';

/** `tools/list`. */
export const ListToolsRequestSchema = JSONRPCRequestSchema.extend({
  /** Always `tools/list`. */
  method: z.literal('tools/list'),
  /** Optional cursor, plus the per-request `_meta`. */
  params: PaginatedRequestParamsSchema,
});
/** `tools/list`. */
export type ListToolsRequest = z.infer<typeof ListToolsRequestSchema>;

/** The tools a server offers, one page at a time; carries caching hints. */
export const ListToolsResultSchema = CacheableResultSchema.extend({
  /** The tools, in the server's order. */
  tools: z.array(ToolSchema),
  /** Opaque cursor for the next page; absent on the last page. */
  nextCursor: z.string().optional(),
});
/** A page of tools. */
export type ListToolsResult = z.infer<typeof ListToolsResultSchema>;

/** Response to `tools/list`. */
export const ListToolsResultResponseSchema = JSONRPCResultResponseSchema.extend({
  /** The tool list. */
  result: ListToolsResultSchema,
});
/** Response to `tools/list`. */
export type ListToolsResultResponse = z.infer<typeof ListToolsResultResponseSchema>;

/** Params of `tools/call`, including the MRTR retry fields. */
export const CallToolRequestParamsSchema = InputResponseRequestParamsSchema.extend({
  /** The tool to call. */
  name: z.string(),
  /** The tool's arguments, checked against its `inputSchema`. */
  arguments: z.record(z.string(), z.unknown()).optional(),
});
/** Params of `tools/call`. */
export type CallToolRequestParams = z.infer<typeof CallToolRequestParamsSchema>;

/** `tools/call`. */
export const CallToolRequestSchema = JSONRPCRequestSchema.extend({
  /** Always `tools/call`. */
  method: z.literal('tools/call'),
  /** The tool and its arguments, plus the per-request `_meta` and any MRTR answers. */
  params: CallToolRequestParamsSchema,
});
/** `tools/call`. */
export type CallToolRequest = z.infer<typeof CallToolRequestSchema>;

/** A tool's result. Tool failures are reported here with `isError: true`, not as JSON-RPC errors. */
export const CallToolResultSchema = ResultSchema.extend({
  /** What the tool returns, as content blocks. */
  content: z.array(ContentBlockSchema),
  /** Structured output, conforming to the tool's `outputSchema` when it declares one. */
  structuredContent: z.unknown().optional(),
  /** `true` when the tool failed; the content then describes the error for the model. */
  isError: z.boolean().optional(),
});
/** A tool's result. */
export type CallToolResult = z.infer<typeof CallToolResultSchema>;

/** Response to `tools/call` in the core protocol: an MRTR interim result or the tool's result. */
export const CallToolResultResponseSchema = JSONRPCResultResponseSchema.extend({
  /** The call's result, or a request for input. */
  result: z.union([InputRequiredResultSchema, CallToolResultSchema]),
});
/** Response to `tools/call`. */
export type CallToolResultResponse = z.infer<typeof CallToolResultResponseSchema>;
