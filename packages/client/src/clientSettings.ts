/** `McpClientOptions` with every default applied, resolved once when a client is created. */
import { type ClientCapabilities, LATEST_PROTOCOL_VERSION } from '@mcp-tasks/protocol';
import { buildClientCapabilities } from './clientCapabilities.js';
import { type Clock, systemClock } from './clock.js';
import type { InputHandlers } from './inputResolver.js';
import type { ListenOptions } from './listenOptions.js';
import type { McpClientOptions } from './mcpClientOptions.js';
import { ResultCache } from './resultCache.js';
import type { TaskJournal } from './taskJournal.js';
import { type ResolvedPollingOptions, resolvePollingOptions } from './taskTracker.js';
import { checkNegotiation, type VersionNegotiation } from './versionNegotiation.js';

/** The defaults of the `McpClientOptions` numbers. */
export const CLIENT_DEFAULTS = Object.freeze({
  /** `maxInputRounds`: MRTR rounds allowed for one call. */
  maxInputRounds: 10,
  /** `probeTimeoutMs`: how long the `server/discover` probe may go unanswered. */
  probeTimeoutMs: 5000,
});

/** What a client runs with, see {@link resolveClientSettings}. */
export interface ClientSettings {
  readonly handlers: InputHandlers;
  /** Whether the client takes part in tasks (`tasks` not `false`). */
  readonly acceptsTask: boolean;
  /** The capabilities every 2026-07-28 request declares (frozen). */
  readonly capabilities: ClientCapabilities;
  /** `options.capabilities`, which 2025-era sessions draw on too. */
  readonly extraCapabilities: ClientCapabilities | undefined;
  readonly polling: ResolvedPollingOptions;
  readonly journal: TaskJournal | undefined;
  readonly listen: boolean | ListenOptions | undefined;
  readonly clock: Clock;
  readonly cache: ResultCache | undefined;
  readonly negotiation: VersionNegotiation;
  readonly protocolVersions: readonly string[];
  readonly maxInputRounds: number;
  readonly probeTimeoutMs: number;
}

/** Applies the defaults to `options`; rejects invalid polling options and version negotiation (`RangeError`). */
export function resolveClientSettings(options: McpClientOptions): ClientSettings {
  const tasks = options.tasks ?? true;
  const taskOptions = typeof tasks === 'object' ? tasks : {};
  const handlers = options.handlers ?? {};
  const acceptsTask = tasks !== false;
  const clock = options.clock ?? systemClock;
  return {
    handlers,
    acceptsTask,
    capabilities: Object.freeze(buildClientCapabilities(handlers, acceptsTask, options.capabilities)),
    extraCapabilities: options.capabilities,
    polling: resolvePollingOptions(taskOptions),
    journal: taskOptions.journal,
    listen: taskOptions.listen,
    clock,
    cache: options.cache === false ? undefined : new ResultCache(clock),
    negotiation: checkNegotiation(options.versionNegotiation),
    protocolVersions: options.protocolVersions ?? [LATEST_PROTOCOL_VERSION],
    maxInputRounds: options.maxInputRounds ?? CLIENT_DEFAULTS.maxInputRounds,
    probeTimeoutMs: options.probeTimeoutMs ?? CLIENT_DEFAULTS.probeTimeoutMs,
  };
}
