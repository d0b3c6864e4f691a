import { z } from 'zod';
import { IconSchema } from './implementation.js';
import { MetaObjectSchema } from './json.js';

/** Hints about a tool's behaviour. Untrusted unless the server is trusted. */
export const ToolAnnotationsSchema = z.looseObject({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});
/** Tool behaviour hints. */
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

/** A tool definition as listed by `tools/list`. `inputSchema` is a JSON Schema for an object. */
export const ToolSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.looseObject({ $schema: z.string().optional(), type: z.literal('object') }),
  outputSchema: z.looseObject({ $schema: z.string().optional() }).optional(),
  annotations: ToolAnnotationsSchema.optional(),
  icons: z.array(IconSchema).optional(),
  _meta: MetaObjectSchema.optional(),
});
/** A tool definition. */
export type Tool = z.infer<typeof ToolSchema>;
