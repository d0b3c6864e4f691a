import { z } from 'zod';
import { JSONObjectSchema } from './json.js';

/** Extension or experimental settings: identifier -> settings object. */
const SettingsMapSchema = z.record(z.string(), JSONObjectSchema);

/**
 * What a client supports. Sent on every request under `_meta["io.modelcontextprotocol/clientCapabilities"]`
 * (there is no session to remember it). Extensions such as the Tasks extension are declared under `extensions`.
 */
export const ClientCapabilitiesSchema = z.looseObject({
  elicitation: z.looseObject({ form: JSONObjectSchema.optional(), url: JSONObjectSchema.optional() }).optional(),
  experimental: SettingsMapSchema.optional(),
  extensions: SettingsMapSchema.optional(),
  roots: z.looseObject({}).optional(),
  sampling: z.looseObject({ context: JSONObjectSchema.optional(), tools: JSONObjectSchema.optional() }).optional(),
});
/** What a client supports. */
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

/** What a server supports, returned by `server/discover`. Extensions are declared under `extensions`. */
export const ServerCapabilitiesSchema = z.looseObject({
  completions: JSONObjectSchema.optional(),
  experimental: SettingsMapSchema.optional(),
  extensions: SettingsMapSchema.optional(),
  logging: JSONObjectSchema.optional(),
  prompts: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  resources: z.looseObject({ listChanged: z.boolean().optional(), subscribe: z.boolean().optional() }).optional(),
  tools: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
});
/** What a server supports. */
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;
