import { z } from 'zod';
import { MetaObjectSchema } from './json.js';

/** A root the client exposes (a `file://` URI, typically). */
export const RootSchema = z.looseObject({
  uri: z.string(),
  name: z.string().optional(),
  _meta: MetaObjectSchema.optional(),
});
/** A root. */
export type Root = z.infer<typeof RootSchema>;

/** `roots/list`, as an input request. `params` is optional. */
export const ListRootsRequestSchema = z.looseObject({
  method: z.literal('roots/list'),
  params: z.looseObject({ _meta: MetaObjectSchema.optional() }).optional(),
});
/** A roots request. */
export type ListRootsRequest = z.infer<typeof ListRootsRequestSchema>;

/** The client's roots. An input response, so it has no `resultType`. */
export const ListRootsResultSchema = z.looseObject({ roots: z.array(RootSchema), _meta: MetaObjectSchema.optional() });
/** A roots result. */
export type ListRootsResult = z.infer<typeof ListRootsResultSchema>;
