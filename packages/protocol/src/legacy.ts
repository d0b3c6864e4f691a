import { z } from 'zod';
import { ServerCapabilitiesSchema } from './capabilities.js';
import { ImplementationSchema } from './implementation.js';
import { META } from './meta.js';
import { TaskStatusSchema } from './tasks.js';

/**
 * The 2025-era wire (MCP 2025-03-26, 2025-06-18 and 2025-11-25): the stateful protocol that starts with
 * `initialize`, and the experimental tasks of 2025-11-25. Served beside 2026-07-28 on the same endpoint; the shapes
 * here are the ones that differ from the 2026 wire. Where a 2025 message has the same shape as its 2026 namesake
 * (tools, prompts, resources, elicitation, sampling) the 2026 schemas in this package are used for both.
 */

/** The 2025-era protocol versions this implementation negotiates, oldest first. */
export const LEGACY_PROTOCOL_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25'] as const;
/** A 2025-era protocol version. */
export type LegacyProtocolVersion = (typeof LEGACY_PROTOCOL_VERSIONS)[number];
/** The newest 2025-era version, offered by clients and answered when a client asks for one we do not speak. */
export const LATEST_LEGACY_PROTOCOL_VERSION: LegacyProtocolVersion = '2025-11-25';

/** True when `version` is one of {@link LEGACY_PROTOCOL_VERSIONS}. */
export function isLegacyProtocolVersion(version: unknown): version is LegacyProtocolVersion {
  return typeof version === 'string' && (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** True when `version` has the experimental tasks (2025-11-25, the only 2025-era version that has them). */
export function hasLegacyTasks(version: string): boolean {
  return version === '2025-11-25';
}

/** `_meta` key that ties a 2025-11-25 message to the task it belongs to. */
export const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task' as const;

/** Capabilities a 2025-era client declares in `initialize`. Open: unknown members are kept. */
export const LegacyClientCapabilitiesSchema = z.looseObject({
  /** Non-standard, experimental capabilities by name. */
  experimental: z.record(z.string(), z.looseObject({})).optional(),
  /** Present when the client can answer `roots/list`. */
  roots: z
    .looseObject({
      /** Whether the client sends `notifications/roots/list_changed`. */
      listChanged: z.boolean().optional(),
    })
    .optional(),
  /** Present when the client can answer `sampling/createMessage`. */
  sampling: z
    .looseObject({
      /** Present when the client honours `includeContext` other than `none`. */
      context: z.looseObject({}).optional(),
      /** Present when the client supports tools in sampling requests. */
      tools: z.looseObject({}).optional(),
    })
    .optional(),
  /** Present when the client can answer `elicitation/create`. */
  elicitation: z
    .looseObject({
      /** Present when the client supports form mode. */
      form: z.looseObject({}).optional(),
      /** Present when the client supports URL mode. */
      url: z.looseObject({}).optional(),
    })
    .optional(),
  /** The client's support for 2025-11-25 tasks. */
  tasks: z
    .looseObject({
      /** Present when the client answers `tasks/list` for tasks it runs. */
      list: z.looseObject({}).optional(),
      /** Present when the client answers `tasks/cancel` for tasks it runs. */
      cancel: z.looseObject({}).optional(),
      /** The server requests the client can run as tasks. */
      requests: z
        .looseObject({
          /** Elicitation requests. */
          elicitation: z
            .looseObject({
              /** Present when `elicitation/create` may be task-augmented. */
              create: z.looseObject({}).optional(),
            })
            .optional(),
          /** Sampling requests. */
          sampling: z
            .looseObject({
              /** Present when `sampling/createMessage` may be task-augmented. */
              createMessage: z.looseObject({}).optional(),
            })
            .optional(),
        })
        .optional(),
    })
    .optional(),
});
/** Capabilities of a 2025-era client. */
export type LegacyClientCapabilities = z.infer<typeof LegacyClientCapabilitiesSchema>;

/** Capabilities a 2025-era server answers in `initialize`. Open: unknown members are kept. */
export const LegacyServerCapabilitiesSchema = z.looseObject({
  /** Non-standard, experimental capabilities by name. */
  experimental: z.record(z.string(), z.looseObject({})).optional(),
  /** Present when the server sends log messages. */
  logging: z.looseObject({}).optional(),
  /** Present when the server answers `completion/complete`. */
  completions: z.looseObject({}).optional(),
  // Prompts, resources and tools have the same shape in both eras.
  /** Present when the server offers prompts. */
  prompts: ServerCapabilitiesSchema.shape.prompts,
  /** Present when the server offers resources. */
  resources: ServerCapabilitiesSchema.shape.resources,
  /** Present when the server offers tools. */
  tools: ServerCapabilitiesSchema.shape.tools,
  /** The server's support for 2025-11-25 tasks. */
  tasks: z
    .looseObject({
      /** Present when the server answers `tasks/list`. */
      list: z.looseObject({}).optional(),
      /** Present when the server answers `tasks/cancel`. */
      cancel: z.looseObject({}).optional(),
      /** The client requests the server can run as tasks. */
      requests: z
        .looseObject({
          /** Tool requests. */
          tools: z
            .looseObject({
              /** Present when `tools/call` may be task-augmented. */
              call: z.looseObject({}).optional(),
            })
            .optional(),
        })
        .optional(),
    })
    .optional(),
});
/** Capabilities of a 2025-era server. */
export type LegacyServerCapabilities = z.infer<typeof LegacyServerCapabilitiesSchema>;

/** `initialize` params: the version the client wants (it may speak older ones too), its capabilities and identity. */
export const InitializeRequestParamsSchema = z.looseObject({
  /** The newest version the client speaks. */
  protocolVersion: z.string(),
  /** What the client supports. */
  capabilities: LegacyClientCapabilitiesSchema,
  /** The client's name and version. */
  clientInfo: ImplementationSchema,
});
/** `initialize` params. */
export type InitializeRequestParams = z.infer<typeof InitializeRequestParamsSchema>;

/** The `initialize` result: the version the server chose, its capabilities and identity. */
export const InitializeResultSchema = z.looseObject({
  /** The version the server chose; the session speaks it. */
  protocolVersion: z.string(),
  /** What the server supports. */
  capabilities: LegacyServerCapabilitiesSchema,
  /** The server's name and version. */
  serverInfo: ImplementationSchema,
  /** How to use the server, for the client to pass on to the model. */
  instructions: z.string().optional(),
});
/** The `initialize` result. */
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

/** `params.task` on a task-augmented 2025-11-25 request: the retention the requestor asks for, in milliseconds. */
export const LegacyTaskMetadataSchema = z.looseObject({
  /** The requested retention in ms. */
  ttl: z.number().int().nonnegative().optional(),
});
/** `params.task` on a task-augmented request. */
export type LegacyTaskMetadata = z.infer<typeof LegacyTaskMetadataSchema>;

/**
 * A 2025-11-25 task as every task method returns it (flat, no result or error inside): `ttl` is the actual
 * retention in milliseconds or null for unlimited, `pollInterval` a suggestion in milliseconds.
 */
export const LegacyTaskSchema = z.looseObject({
  /** The task's id. */
  taskId: z.string(),
  /** The task's status. */
  status: TaskStatusSchema,
  /** A human-readable note on the status. */
  statusMessage: z.string().optional(),
  /** When the task was created (ISO 8601). */
  createdAt: z.string(),
  /** When the task last changed (ISO 8601). */
  lastUpdatedAt: z.string(),
  /** The actual retention from creation in ms; `null` for unlimited. */
  ttl: z.number().int().nonnegative().nullable(),
  /** Suggested polling interval in ms. */
  pollInterval: z.number().int().nonnegative().optional(),
});
/** A 2025-11-25 task. */
export type LegacyTask = z.infer<typeof LegacyTaskSchema>;

/** The answer to a task-augmented 2025-11-25 request: `{ task }`; the payload comes later from `tasks/result`. */
export const LegacyCreateTaskResultSchema = z.looseObject({
  /** The created task. */
  task: LegacyTaskSchema,
});
/** The answer to a task-augmented 2025-11-25 request. */
export type LegacyCreateTaskResult = z.infer<typeof LegacyCreateTaskResultSchema>;

/** The `tasks/list` result of 2025-11-25. */
export const LegacyListTasksResultSchema = z.looseObject({
  /** The tasks, one page. */
  tasks: z.array(LegacyTaskSchema),
  /** Opaque cursor for the next page; absent on the last page. */
  nextCursor: z.string().optional(),
});
/** The `tasks/list` result of 2025-11-25. */
export type LegacyListTasksResult = z.infer<typeof LegacyListTasksResultSchema>;

/** Per-tool task support in a 2025-11-25 `tools/list` (`execution.taskSupport`); absent means `forbidden`. */
export const LegacyTaskSupportSchema = z.enum(['forbidden', 'optional', 'required']);
/** Per-tool task support in a 2025-11-25 `tools/list`. */
export type LegacyTaskSupport = z.infer<typeof LegacyTaskSupportSchema>;

/** Which protocol era one inbound message belongs to. */
export type MessageEra = 'modern' | 'legacy';

/**
 * Classifies one inbound message before anything is dispatched, so both eras can share an endpoint.
 *
 * `modern` (2026-07-28, stateless) when the message is a request or notification whose `params._meta` carries the
 * protocol version key, or when `protocolVersionHeader` (Streamable HTTP's `MCP-Protocol-Version`) names a version
 * that is not a 2025-era one. Everything else is `legacy`: a 2025-era request or notification, and every JSON-RPC
 * response (only 2025-era servers send requests that a client answers). The mere presence of the header is no
 * signal: 2025-era clients send `MCP-Protocol-Version: 2025-11-25` too. Never throws; anything that is not an
 * object counts as `legacy`, and the receiver's own validation rejects it.
 */
export function messageEra(message: unknown, protocolVersionHeader?: string): MessageEra {
  if (protocolVersionHeader !== undefined && !isLegacyProtocolVersion(protocolVersionHeader)) return 'modern';
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return 'legacy';
  const params = (message as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return 'legacy';
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null) return 'legacy';
  return META.protocolVersion in meta ? 'modern' : 'legacy';
}
