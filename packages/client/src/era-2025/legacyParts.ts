/**
 * The 2025 era's parts of a client, built in one call: how a 2025-era session runs `tools/call`, what answers the
 * server's own requests, what an `initialize` declares, and what to forget when a session ends.
 */
import {
  type CallToolResult,
  CallToolResultSchema,
  type ClientCapabilities,
  type ClientPeerHandler,
  type LegacyClientCapabilities,
  type Tool,
  type TransportNotification,
  withFields,
} from '@mcp-tasks/protocol';
import type { Clock } from '../clock.js';
import type { InputHandlers } from '../inputResolver.js';
import type { CallToolOptions } from '../mcpClientOptions.js';
import { parseResult } from '../parseResult.js';
import type { ResultCache } from '../resultCache.js';
import type { ResolvedPollingOptions } from '../taskTracker.js';
import { buildLegacyCapabilities } from './legacyCapabilities.js';
import { CallsInFlight, legacyPeerHandler } from './legacyPeerHandler.js';
import type { LegacySession } from './legacySession.js';
import { LegacyToolCalls, type LegacyToolCallsOptions } from './legacyTaskDriver.js';
import { LegacyTaskReceiver } from './legacyTaskReceiver.js';

type Params = Readonly<Record<string, unknown>>;

/** What the 2025 era needs from the client that composes it. */
export interface LegacyPartsOptions {
  readonly handlers: InputHandlers;
  /** The members of the client's declared capabilities that a 2025-era `initialize` carries too. */
  readonly extraCapabilities: ClientCapabilities | undefined;
  /** Whether the client takes part in tasks (declares 2025-11-25 `tasks`, augments `tools/call`). */
  readonly acceptsTask: boolean;
  readonly clock: Clock;
  readonly polling: ResolvedPollingOptions;
  /** Sends one request in the negotiated era; with `onProgress`, under a fresh progress token. */
  readonly send: LegacyToolCallsOptions['send'];
  /** A progress token no other request of this client has used. */
  readonly progressToken: () => string;
  /** Every tool of the server (`tools/list` to the end). */
  readonly listTools: (signal: AbortSignal | undefined) => Promise<readonly Tool[]>;
  /** What the current session declared in `initialize` (nothing between sessions). */
  readonly declared: () => LegacyClientCapabilities;
  /** The result cache, which a notification outside the client's requests may invalidate (a list changed). */
  readonly cache: Pick<ResultCache, 'invalidate'> | undefined;
  /** The host's hook: sees every notification outside the client's requests; exceptions are ignored. */
  readonly onNotification: ((notification: TransportNotification) => void) | undefined;
}

/** `tools/call` run to its end in a 2025-era session. */
export interface LegacyToolCaller {
  /** Calls tool `name` in `session` and resolves with its final result (a 2025-era task is followed to its end). */
  call(session: LegacySession, name: string, args: Params, options: CallToolOptions): Promise<CallToolResult>;
}

/** The 2025 era's parts, see {@link createLegacyParts}. */
export interface LegacyParts {
  readonly toolCalls: LegacyToolCaller;
  /** Answers what a 2025-era server sends on its own; installed on the transport before any handshake. */
  readonly peerHandler: ClientPeerHandler;
  /** The capabilities an `initialize` offering `version` declares. */
  readonly capabilities: (version: string) => LegacyClientCapabilities;
  /** Forgets what belonged to the ended session: the tasks its server asked this client to run. */
  readonly onSessionEnd: () => void;
}

/** Builds the 2025 era of one client. */
export function createLegacyParts(options: LegacyPartsOptions): LegacyParts {
  const calls = new CallsInFlight();
  // Tasks a 2025-11-25 server asked this client to run (task-augmented elicitation and sampling).
  const receiver = new LegacyTaskReceiver(options.clock);
  // Progress of 2025-era tasks, which arrives outside the request that asked for it.
  const progressRoutes = new Map<string, (notification: TransportNotification) => void>();
  const tools = new LegacyToolCalls({
    send: options.send,
    progressToken: options.progressToken,
    routeProgress: (token, route) => {
      progressRoutes.set(token, route);
      return () => progressRoutes.delete(token);
    },
    listTools: options.listTools,
    calls,
    clock: options.clock,
    polling: options.polling,
  });
  const peerHandler = legacyPeerHandler({
    handlers: options.handlers,
    capabilities: options.declared,
    calls,
    receiver,
    onNotification: (notification) => {
      const token = notification.method === 'notifications/progress' ? notification.params?.progressToken : undefined;
      if (typeof token === 'string') progressRoutes.get(token)?.(notification);
      options.cache?.invalidate(notification);
      try {
        options.onNotification?.(notification);
      } catch {
        // The host's hook failing is no reason to drop the session.
      }
    },
  });
  return {
    toolCalls: {
      call: async (session, name, args, callOptions) => {
        const raw = await tools.call(session, name, args, callOptions);
        // A 2025-era result has no resultType: it is complete.
        return parseResult('tools/call', CallToolResultSchema, withFields(raw, { resultType: 'complete' }));
      },
    },
    peerHandler,
    capabilities: (version) =>
      buildLegacyCapabilities(options.handlers, version, options.extraCapabilities, options.acceptsTask),
    onSessionEnd: () => receiver.clear(),
  };
}
