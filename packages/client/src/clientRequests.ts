/**
 * The client's request path, era-neutral: one request sent in the negotiated era (with a progress token unique to
 * this client when the caller listens for progress), the MRTR rounds answered by the input handlers, and the result
 * cache in front of them.
 */
import {
  type ClientCapabilities,
  isRecord,
  META,
  ProtocolError,
  type TransportNotification,
  withFields,
} from '@mcp-tasks/protocol';
import type { z } from 'zod';
import type { EraConnection } from './eraConnection.js';
import type { InputHandlers } from './inputResolver.js';
import { type RoundsOutcome, runInputRounds } from './inputRounds.js';
import type { ProgressCallOptions } from './mcpClientOptions.js';
import { parseResult } from './parseResult.js';
import { progressHandler } from './progressHandler.js';
import { normaliseCacheHints, type ResultCache } from './resultCache.js';
import type { RawResult, RpcClient } from './rpcClient.js';
import type { RequestResult } from './taskHandle.js';
import type { OpenListenStream } from './taskListener.js';

type Params = Readonly<Record<string, unknown>>;

/** Options of one sent request: a call's options plus the notifications scoped to the request. */
export type SendOptions = ProgressCallOptions & {
  readonly onNotification?: ((notification: TransportNotification) => void) | undefined;
};

/** What {@link ClientRequests} needs from the client. */
export interface ClientRequestsOptions {
  readonly rpc: RpcClient;
  readonly era: Pick<EraConnection, 'send'>;
  /** The capabilities every 2026-07-28 request declares. */
  readonly capabilities: ClientCapabilities;
  readonly handlers: InputHandlers;
  /** Whether a task may answer a request (else `resultType: "task"` is a protocol violation). */
  readonly acceptsTask: boolean;
  readonly maxInputRounds: number;
  readonly cache: ResultCache | undefined;
}

/** Sends the requests of one client. */
export class ClientRequests {
  readonly #options: ClientRequestsOptions;
  #nextProgressToken = 1;

  constructor(options: ClientRequestsOptions) {
    this.#options = options;
  }

  /** A progress token no other request of this client has used. */
  progressToken(): string {
    return `progress-${this.#nextProgressToken++}`;
  }

  /**
   * Sends one request in the negotiated era; with `onProgress`, under a progress token no other request of this
   * client has used.
   */
  send(method: string, params: Params, { signal, onProgress, ...rest }: SendOptions): Promise<RawResult> {
    let sent = params;
    let onNotification = rest.onNotification;
    if (onProgress !== undefined) {
      const token = this.progressToken();
      const meta = isRecord(params._meta) ? params._meta : {};
      sent = withFields(params, { _meta: withFields(meta, { [META.progressToken]: token }) });
      onNotification = progressHandler(token, onProgress);
    }
    const options = { signal, onNotification };
    const { rpc, era, capabilities } = this.#options;
    return era.send(method, sent, options, () => rpc.request(method, sent, withFields(options, { capabilities })));
  }

  /** Sends `method` and answers its MRTR rounds with the handlers until it completes or becomes a task. */
  rounds(method: string, params: Params, options: ProgressCallOptions): Promise<RoundsOutcome> {
    return runInputRounds(method, params, {
      send: (attempt) => this.send(method, attempt, options),
      handlers: this.#options.handlers,
      acceptsTask: this.#options.acceptsTask,
      maxRounds: this.#options.maxInputRounds,
      signal: options.signal,
    });
  }

  /** {@link request}, its result checked against `schema` (an `InvalidResponseError` when it does not match). */
  async typed<T>(method: string, schema: z.ZodType<T>, params: Params, options: ProgressCallOptions): Promise<T> {
    return parseResult(method, schema, await this.request(method, params, options));
  }

  /**
   * Opens one `subscriptions/listen` stream with the client's capabilities (the listen multiplexer's
   * `OpenListenStream`).
   */
  readonly openListen: OpenListenStream = (params, onNotification, onSend, signal) =>
    this.#options.rpc.request('subscriptions/listen', params, {
      capabilities: this.#options.capabilities,
      signal,
      onNotification,
      onSend,
    });

  /** `McpClient.request`: {@link rounds} behind the result cache. */
  async request(method: string, params: Params, options: ProgressCallOptions): Promise<RequestResult> {
    const { cache } = this.#options;
    const cached = cache?.get(method, params);
    if (cached !== undefined) return cached;
    let outcome: RoundsOutcome;
    try {
      outcome = await this.rounds(method, params, options);
    } catch (error) {
      // A rejected cursor means the cached pages may no longer line up: start the list afresh next time.
      if (error instanceof ProtocolError && params.cursor !== undefined) cache?.invalidateMethod(method);
      throw error;
    }
    if (outcome.kind === 'task') return outcome.task;
    const result = normaliseCacheHints(method, outcome.result);
    if (!outcome.retried) cache?.set(method, params, result);
    return result;
  }
}
