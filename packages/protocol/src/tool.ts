import { z } from 'zod';
import { IconSchema } from './implementation.js';
import { MetaObjectSchema } from './json.js';

/** Hints about a tool's behaviour. Untrusted unless the server is trusted. */
export const ToolAnnotationsSchema = z.looseObject({
  /** Display name for UIs. */
  title: z.string().optional(),
  /** The tool does not modify its environment. Default false. */
  readOnlyHint: z.boolean().optional(),
  /** The tool may perform destructive updates (meaningful only when not read-only). Default true. */
  destructiveHint: z.boolean().optional(),
  /**
   * Calling it again with the same arguments has no further effect (meaningful only when not read-only). Default false.
   */
  idempotentHint: z.boolean().optional(),
  /** The tool may interact with an open world of external entities. Default true. */
  openWorldHint: z.boolean().optional(),
});
/** Tool behaviour hints. */
export type ToolAnnotations = z.infer<typeof ToolAnnotationsSchema>;

/** A tool definition as listed by `tools/list`. `inputSchema` is a JSON Schema for an object. */
export const ToolSchema = z.looseObject({
  /** Programmatic name, unique on the server. */
  name: z.string(),
  /** Display name for UIs. */
  title: z.string().optional(),
  /** What the tool does, for the model. */
  description: z.string().optional(),
  /** JSON Schema of the tool's `arguments`: an object schema. */
  inputSchema: z.looseObject({
    /** The JSON Schema dialect. */
    $schema: z.string().optional(),
    /** Always `object`. */
    type: z.literal('object'),
  }),
  /** JSON Schema of the tool's `structuredContent`, when it returns any. */
  outputSchema: z
    .looseObject({
      /** The JSON Schema dialect. */
      $schema: z.string().optional(),
    })
    .optional(),
  /** Hints about the tool's behaviour; untrusted unless the server is. */
  annotations: ToolAnnotationsSchema.optional(),
  /** Icons for UIs. */
  icons: z.array(IconSchema).optional(),
  /** Reserved metadata. */
  _meta: MetaObjectSchema.optional(),
});
/** A tool definition. */
export type Tool = z.infer<typeof ToolSchema>;
