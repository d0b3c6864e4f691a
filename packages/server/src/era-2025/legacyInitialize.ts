import {
  hasLegacyTasks,
  InitializeRequestParamsSchema,
  type InitializeResult,
  isLegacyProtocolVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  type LegacyProtocolVersion,
  type LegacyServerCapabilities,
  type PeerSession,
} from '@mcp-tasks/protocol';
import { formatZodError, invalidParams } from '../errors.js';
import type { JsonObject } from '../jsonRpc.js';
import type { LegacySessionState } from './legacySessions.js';

const DATE_VERSION = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The 2025-era version answered to a client asking for `requested`: that version when it is one we speak, else the
 * newest one not above it (versions are dates), else the newest we speak (a newer version such as 2026-07-28, an
 * older one, or junk). The client decides whether it can live with the answer.
 */
export function negotiateLegacyVersion(requested: string): LegacyProtocolVersion {
  if (isLegacyProtocolVersion(requested)) return requested;
  if (!DATE_VERSION.test(requested)) return LATEST_LEGACY_PROTOCOL_VERSION;
  const below = LEGACY_PROTOCOL_VERSIONS.filter((version) => version < requested);
  return below.at(-1) ?? LATEST_LEGACY_PROTOCOL_VERSION;
}

/**
 * The experimental task capabilities a 2025-11-25 session is offered: `tasks/list`, `tasks/cancel` and
 * task-augmented `tools/call`. The task methods themselves are served by the legacy task routes.
 */
export function legacyTaskCapabilities(): NonNullable<LegacyServerCapabilities['tasks']> {
  return { list: {}, cancel: {}, requests: { tools: { call: {} } } };
}

/** Exactly what this server serves in a session of `version` (tasks exist only in 2025-11-25). */
export function legacyServerCapabilities(version: LegacyProtocolVersion): LegacyServerCapabilities {
  return {
    logging: {},
    completions: {},
    prompts: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    tools: { listChanged: true },
    ...(hasLegacyTasks(version) ? { tasks: legacyTaskCapabilities() } : {}),
  };
}

/** What the server says about itself in every `InitializeResult`. */
export interface LegacyIdentity {
  readonly serverInfo: { readonly name: string; readonly version: string; readonly title?: string };
  readonly instructions?: string | undefined;
}

/**
 * Serves `initialize`: validates its params (`-32602`), negotiates the version and builds the session's new state
 * and the result. The caller stores the state.
 */
export function initializeSession(
  session: PeerSession,
  params: JsonObject,
  identity: LegacyIdentity,
): { readonly state: LegacySessionState; readonly result: InitializeResult } {
  const parsed = InitializeRequestParamsSchema.safeParse(params);
  if (!parsed.success) throw invalidParams(`Invalid params: ${formatZodError(parsed.error)}`);
  const protocolVersion = negotiateLegacyVersion(parsed.data.protocolVersion);
  const state: LegacySessionState = {
    session,
    protocolVersion,
    clientCapabilities: parsed.data.capabilities as JsonObject,
    clientInfo: parsed.data.clientInfo as JsonObject,
    initialized: false,
    logLevel: undefined,
    subscriptions: new Set(),
  };
  const result: InitializeResult = {
    protocolVersion,
    capabilities: legacyServerCapabilities(protocolVersion),
    serverInfo: { ...identity.serverInfo },
    ...(identity.instructions === undefined ? {} : { instructions: identity.instructions }),
  };
  return { state, result };
}
