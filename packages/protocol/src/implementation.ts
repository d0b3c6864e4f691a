import { z } from 'zod';

/** An icon for a tool, prompt, resource or implementation. */
export const IconSchema = z.looseObject({
  src: z.string(),
  mimeType: z.string().optional(),
  sizes: z.array(z.string()).optional(),
  theme: z.enum(['light', 'dark']).optional(),
});
/** An icon. */
export type Icon = z.infer<typeof IconSchema>;

/** The `icons` field shared by several entities. */
export const IconsSchema = z.looseObject({ icons: z.array(IconSchema).optional() });
/** The `icons` field. */
export type Icons = z.infer<typeof IconsSchema>;

/** A name plus optional display title, the base of tools, prompts and resources. */
export const BaseMetadataSchema = z.looseObject({ name: z.string(), title: z.string().optional() });
/** A name plus optional display title. */
export type BaseMetadata = z.infer<typeof BaseMetadataSchema>;

/** Names a client or server implementation (`clientInfo` / `serverInfo`). */
export const ImplementationSchema = z.looseObject({
  name: z.string(),
  title: z.string().optional(),
  version: z.string(),
  description: z.string().optional(),
  icons: z.array(IconSchema).optional(),
  websiteUrl: z.string().optional(),
});
/** A client or server implementation. */
export type Implementation = z.infer<typeof ImplementationSchema>;
