import { z } from 'zod';
import { JSONObjectSchema } from './json.js';

/** Extension or experimental settings: identifier -> settings object. */
const SettingsMapSchema = z.record(z.string(), JSONObjectSchema);

/**
 * What a client supports. Sent on every request under `_meta["io.modelcontextprotocol/clientCapabilities"]`
 * (there is no session to remember it). Extensions such as the Tasks extension are declared under `extensions`.
 */
export const ClientCapabilitiesSchema = z.looseObject({
  /**
   * Present when the client can answer `elicitation/create`; `form` and `url` name the modes it supports (an empty
   * object means form only).
   */
  elicitation: z
    .looseObject({
      /** Present when the client supports form-mode elicitation. */
      form: JSONObjectSchema.optional(),
      /** Present when the client supports URL-mode elicitation. */
      url: JSONObjectSchema.optional(),
    })
    .optional(),
  /** Non-standard, experimental capabilities by name. */
  experimental: SettingsMapSchema.optional(),
  /** Extensions the client supports, by identifier (e.g. the Tasks extension), each with its settings object. */
  extensions: SettingsMapSchema.optional(),
  /** Present when the client can answer `roots/list`. */
  roots: z.looseObject({}).optional(),
  /** Present when the client can answer `sampling/createMessage`. */
  sampling: z
    .looseObject({
      /** Present when the client honours `includeContext` other than `none`. */
      context: JSONObjectSchema.optional(),
      /** Present when the client supports `tools` and `toolChoice` in sampling requests. */
      tools: JSONObjectSchema.optional(),
    })
    .optional(),
});
/** What a client supports. */
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

/** What a server supports, returned by `server/discover`. Extensions are declared under `extensions`. */
export const ServerCapabilitiesSchema = z.looseObject({
  /** Present when the server answers `completion/complete`. */
  completions: JSONObjectSchema.optional(),
  /** Non-standard, experimental capabilities by name. */
  experimental: SettingsMapSchema.optional(),
  /** Extensions the server supports, by identifier (e.g. the Tasks extension), each with its settings object. */
  extensions: SettingsMapSchema.optional(),
  /** Present when the server sends log messages (`notifications/message`). */
  logging: JSONObjectSchema.optional(),
  /** Present when the server offers prompts. */
  prompts: z
    .looseObject({
      /** Whether the server sends `notifications/prompts/list_changed`. */
      listChanged: z.boolean().optional(),
    })
    .optional(),
  /** Present when the server offers resources. */
  resources: z
    .looseObject({
      /** Whether the server sends `notifications/resources/list_changed`. */
      listChanged: z.boolean().optional(),
      /** Whether clients can subscribe to updates of single resources. */
      subscribe: z.boolean().optional(),
    })
    .optional(),
  /** Present when the server offers tools. */
  tools: z
    .looseObject({
      /** Whether the server sends `notifications/tools/list_changed`. */
      listChanged: z.boolean().optional(),
    })
    .optional(),
});
/** What a server supports. */
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;
