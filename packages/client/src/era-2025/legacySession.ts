/**
 * One 2025-era session: the `initialize` handshake, then plain requests (no 2026-07-28 `_meta` envelope).
 */
import {
  type ClientTransport,
  type Implementation,
  type InitializeResult,
  InitializeResultSchema,
  isLegacyProtocolVersion,
  type LegacyClientCapabilities,
  type LegacyProtocolVersion,
  type LegacyServerCapabilities,
  type TransportNotification,
} from '@mcp-tasks/protocol';
import { InvalidResponseError } from '../errors.js';
import type { RawResult, RpcClient } from '../rpcClient.js';

/** Options of {@link LegacySession.open}. */
export interface LegacySessionOptions {
  readonly rpc: RpcClient;
  readonly transport: ClientTransport;
  readonly clientInfo: Implementation;
  /** The version offered in `initialize`. */
  readonly version: LegacyProtocolVersion;
  /** Whether the server must answer exactly {@link version} (a pinned client) or may pick another 2025-era one. */
  readonly exact: boolean;
  /** The capabilities to declare, for the version the server may answer. */
  readonly capabilities: (version: string) => LegacyClientCapabilities;
}

/** Options of one request in the session. */
export interface LegacyRequestOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onNotification?: ((notification: TransportNotification) => void) | undefined;
}

/** A 2025-era session after a successful handshake. */
export class LegacySession {
  readonly #rpc: RpcClient;
  /** The `initialize` result: negotiated version, server capabilities and identity, instructions. */
  readonly initialize: InitializeResult;
  /** What this client declared in `initialize`. */
  readonly declared: LegacyClientCapabilities;

  private constructor(rpc: RpcClient, initialize: InitializeResult, declared: LegacyClientCapabilities) {
    this.#rpc = rpc;
    this.initialize = initialize;
    this.declared = declared;
  }

  /** The negotiated protocol version. */
  get protocolVersion(): LegacyProtocolVersion {
    return this.initialize.protocolVersion as LegacyProtocolVersion;
  }

  /** What the server declared in `initialize`. */
  get serverCapabilities(): LegacyServerCapabilities {
    return this.initialize.capabilities;
  }

  /**
   * Runs the handshake: `initialize` (never cancelled: the caller's abort does not reach it), a check that the
   * answer names a 2025-era version this client speaks (else the transport is closed and this rejects with
   * `InvalidResponseError`), then `notifications/initialized`.
   */
  static async open(options: LegacySessionOptions): Promise<LegacySession> {
    const { rpc, version } = options;
    const declared = options.capabilities(version);
    const raw = await rpc.requestPlain(
      'initialize',
      { protocolVersion: version, capabilities: declared, clientInfo: options.clientInfo },
      {},
    );
    const parsed = InitializeResultSchema.safeParse(raw);
    if (!parsed.success)
      throw new InvalidResponseError('initialize', 'malformed InitializeResult', { cause: parsed.error });
    const answered = parsed.data.protocolVersion;
    if (!isLegacyProtocolVersion(answered) || (options.exact && answered !== version)) {
      await options.transport.close().catch(() => undefined);
      throw new InvalidResponseError(
        'initialize',
        `the server answered protocol version ${JSON.stringify(answered)}; this client asked for ${version}${options.exact ? ' (pinned)' : ' and speaks 2025-03-26, 2025-06-18 and 2025-11-25'}`,
      );
    }
    await options.transport.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return new LegacySession(rpc, parsed.data, declared);
  }

  /** Sends one request in the session, as given (a `_meta.progressToken` is the caller's to add). */
  request(
    method: string,
    params: Readonly<Record<string, unknown>>,
    options: LegacyRequestOptions,
  ): Promise<RawResult> {
    return this.#rpc.requestPlain(method, params, options);
  }
}
