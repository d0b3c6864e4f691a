import { z } from 'zod';

/** An icon for a tool, prompt, resource or implementation. */
export const IconSchema = z.looseObject({
  /** The icon's URI: `https:` or a `data:` URI. */
  src: z.string(),
  /** The icon's MIME type, when it differs from what the URI implies. */
  mimeType: z.string().optional(),
  /** Sizes the icon is available in (`48x48`, `any` for scalable formats). */
  sizes: z.array(z.string()).optional(),
  /** The UI theme the icon is made for; absent for any. */
  theme: z.enum(['light', 'dark']).optional(),
});
/** An icon. */
export type Icon = z.infer<typeof IconSchema>;

/** The `icons` field shared by several entities. */
export const IconsSchema = z.looseObject({
  /** Icons for UIs. */
  icons: z.array(IconSchema).optional(),
});
/** The `icons` field. */
export type Icons = z.infer<typeof IconsSchema>;

/** A name plus optional display title, the base of tools, prompts and resources. */
export const BaseMetadataSchema = z.looseObject({
  /** Programmatic name. */
  name: z.string(),
  /** Display name for UIs. */
  title: z.string().optional(),
});
/** A name plus optional display title. */
export type BaseMetadata = z.infer<typeof BaseMetadataSchema>;

/** Names a client or server implementation (`clientInfo` / `serverInfo`). */
export const ImplementationSchema = z.looseObject({
  /** Programmatic name of the implementation. */
  name: z.string(),
  /** Display name for UIs. */
  title: z.string().optional(),
  /** Its version. */
  version: z.string(),
  /** What the implementation does. */
  description: z.string().optional(),
  /** Icons for UIs. */
  icons: z.array(IconSchema).optional(),
  /** The implementation's website. */
  websiteUrl: z.string().optional(),
});
/** A client or server implementation. */
export type Implementation = z.infer<typeof ImplementationSchema>;
