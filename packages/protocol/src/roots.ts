import { z } from 'zod';
import { MetaObjectSchema } from './json.js';

/** A root the client exposes (a `file://` URI, typically). */
export const RootSchema = z.looseObject({
  /** The root's URI (a `file://` URI). */
  uri: z.string(),
  /** A name for the root, for display. */
  name: z.string().optional(),
  /** Reserved metadata. */
  _meta: MetaObjectSchema.optional(),
});
/** A root. */
export type Root = z.infer<typeof RootSchema>;

/** `roots/list`, as an input request. `params` is optional. */
export const ListRootsRequestSchema = z.looseObject({
  /** Always `roots/list`. */
  method: z.literal('roots/list'),
  /** Optional params. */
  params: z
    .looseObject({
      /** Reserved metadata. */
      _meta: MetaObjectSchema.optional(),
    })
    .optional(),
});
/** A roots request. */
export type ListRootsRequest = z.infer<typeof ListRootsRequestSchema>;

/** The client's roots. An input response, so it has no `resultType`. */
export const ListRootsResultSchema = z.looseObject({
  /** The client's roots. */
  roots: z.array(RootSchema),
  /** Reserved metadata. */
  _meta: MetaObjectSchema.optional(),
});
/** A roots result. */
export type ListRootsResult = z.infer<typeof ListRootsResultSchema>;
