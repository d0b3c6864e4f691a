import {
  type ClientPeerHandler,
  type ClientRequestOptions,
  delay,
  isLegacyProtocolVersion,
  isRecord,
  onAbort,
  TransportError,
  type TransportNotification,
  type TransportRequest,
  type TransportResponse,
} from '@mcp-tasks/protocol';
import { ClientPeerDispatch } from '@mcp-tasks/transport-kit';
import type { HttpChannel } from '../httpChannel.js';
import { readJsonReply } from '../readJsonReply.js';
import { type HttpReconnectOptions, ReconnectPolicy } from './reconnectPolicy.js';
import { discard, isEventStream } from './responses.js';
import { getHeaders, postHeaders, sessionHeaders } from './sessionHeaders.js';
import { SseRouter, type StreamCursor, type StreamScope } from './sseRouter.js';

/** Options of {@link LegacySession}. */
export interface LegacySessionOptions {
  readonly reconnect?: HttpReconnectOptions | undefined;
  /** Server requests the peer handler may be running at once (see `HttpClientTransportOptions`). */
  readonly maxServerRequests?: number | undefined;
  readonly warn: (message: string) => void;
  /** Called on `notifications/tools/list_changed` from any stream. */
  readonly onToolsChanged: () => void;
}

/** How long `close()` waits for the server to answer the session's DELETE. */
const DELETE_TIMEOUT_MS = 2000;
/** What `Mcp-Session-Id` may hold: visible ASCII. Anything else could not be sent back as a header. */
const SESSION_ID = /^[\x21-\x7e]+$/;

/**
 * The client side of one 2025-era Streamable HTTP session: the `Mcp-Session-Id` and protocol version an
 * `initialize` established, sent on every later POST, GET and DELETE; server requests and notifications from any
 * stream; the GET stream; resuming a POST stream that ended before its response.
 */
export class LegacySession {
  readonly #channel: HttpChannel;
  readonly #policy: ReconnectPolicy;
  readonly #peer: ClientPeerDispatch;
  readonly #router: SseRouter;
  #id: string | undefined;
  #version: string | undefined;
  #initialized = false;
  #listening: AbortController | undefined;
  #listenRefused = false;

  constructor(channel: HttpChannel, options: LegacySessionOptions) {
    this.#channel = channel;
    this.#policy = new ReconnectPolicy(options.reconnect);
    this.#peer = new ClientPeerDispatch({
      send: (response) => this.#post(response, 'response'),
      maxConcurrent: options.maxServerRequests,
      onError: (error) => {
        // Closing the transport while an answer was on its way is not worth a warning.
        if (error.cause instanceof TransportError && error.cause.code === 'closed') return;
        const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
        options.warn(`${error.message}${cause}`);
      },
    });
    this.#router = new SseRouter(this.#peer, options.onToolsChanged);
  }

  /** The `Mcp-Session-Id` the server assigned in answer to `initialize`, or undefined (none, or not yet). */
  get sessionId(): string | undefined {
    return this.#id;
  }

  /** The protocol version the server chose in answer to `initialize`, or undefined before one succeeded. */
  get protocolVersion(): string | undefined {
    return this.#version;
  }

  setPeerHandler(handler: ClientPeerHandler): void {
    this.#peer.setHandler(handler);
    this.#listen();
  }

  async request(message: TransportRequest, options: ClientRequestOptions): Promise<TransportResponse> {
    const initialize = message.method === 'initialize';
    if (initialize) this.#reset();
    const sent = this.#id;
    const call = {
      method: 'POST',
      headers: postHeaders(this.#id, this.#version),
      body: JSON.stringify(message),
      signal: options.signal,
    } as const;
    // In this era closing the stream does not cancel the request: tell the server. Never for initialize.
    const userSignal = options.signal;
    const off =
      initialize || userSignal === undefined
        ? undefined
        : onAbort(userSignal, () => this.#cancel(message.id, userSignal.reason));
    try {
      return await this.#channel.exchange(call, async (res, signal) => {
        await this.#refuseGone(res, sent);
        const assigned = res.headers.get('mcp-session-id') ?? undefined;
        const response = isEventStream(res)
          ? await this.#readStream(res.body, message, options, signal)
          : await readJsonReply(res, message.id);
        if (initialize && 'result' in response) this.#adopt(assigned, response.result.protocolVersion);
        return response;
      });
    } finally {
      off?.();
    }
  }

  #cancel(requestId: TransportRequest['id'], reason: unknown): void {
    const params = reason instanceof Error ? { requestId, reason: reason.message } : { requestId };
    this.#post({ jsonrpc: '2.0', method: 'notifications/cancelled', params }, 'notification').catch(() => {
      // Best effort: the request is already rejected locally, and a late response is ignored.
    });
  }

  async notify(message: TransportNotification): Promise<void> {
    await this.#post(message, 'notification');
    if (message.method === 'notifications/initialized') {
      this.#initialized = true;
      this.#listen();
    }
  }

  /** Ends the session: stops the GET stream and the server requests being served, then DELETEs the session. */
  async close(): Promise<void> {
    const id = this.#id;
    const headers = sessionHeaders(this.#id, this.#version);
    this.#reset();
    this.#peer.abortAll(new TransportError('closed', 'Transport closed'));
    // The server may not support DELETE (405) or be gone already: either way the session is over for us.
    if (id !== undefined) await this.#channel.farewell(headers, DELETE_TIMEOUT_MS);
  }

  #adopt(id: string | undefined, version: unknown): void {
    this.#id = id !== undefined && SESSION_ID.test(id) ? id : undefined;
    this.#version = isLegacyProtocolVersion(version) ? version : undefined;
  }

  #reset(): void {
    this.#listening?.abort(new TransportError('closed', 'The session ended'));
    this.#listening = undefined;
    this.#id = undefined;
    this.#version = undefined;
    this.#initialized = false;
    this.#listenRefused = false;
  }

  /** A 404 to a message that named the session means the server ended it: forget it and say so. */
  async #refuseGone(res: Response, sent: string | undefined): Promise<void> {
    if (res.status !== 404 || sent === undefined) return;
    await discard(res);
    if (this.#id === sent) this.#reset();
    throw new TransportError('http_status', 'HTTP 404: the server ended the session; initialize again', {
      status: 404,
    });
  }

  /** POSTs a notification or a response to a server request; the server acknowledges with 202. */
  async #post(message: TransportNotification | TransportResponse, kind: string): Promise<void> {
    const sent = this.#id;
    const call = {
      method: 'POST',
      headers: postHeaders(this.#id, this.#version),
      body: JSON.stringify(message),
    } as const;
    await this.#channel.exchange(call, async (res) => {
      await this.#refuseGone(res, sent);
      await discard(res);
      if (!res.ok) throw new TransportError('http_status', `HTTP ${res.status} for a ${kind}`, { status: res.status });
    });
  }

  async #readStream(
    body: ReadableStream<Uint8Array>,
    message: TransportRequest,
    options: ClientRequestOptions,
    signal: AbortSignal,
  ): Promise<TransportResponse> {
    const meta = message.params?._meta;
    const progressToken = isRecord(meta) ? meta.progressToken : undefined;
    const scope: StreamScope = { id: message.id, progressToken, onNotification: options.onNotification, signal };
    const cursor: StreamCursor = { frames: 0 };
    const response = await this.#router.consume(body, scope, cursor);
    if (response !== undefined) return response;
    // Without an event id the server cannot replay what the stream would have carried.
    if (cursor.lastEventId === undefined)
      throw new TransportError('closed', 'The SSE stream ended before the response');
    return this.#resume(scope, cursor, signal);
  }

  /** Waits for the response of a POST whose stream ended: resumes it with GET + `Last-Event-ID`, or takes it from any stream. */
  async #resume(scope: StreamScope, cursor: StreamCursor, signal: AbortSignal): Promise<TransportResponse> {
    signal.throwIfAborted();
    // The server may replay the response on another stream (the GET stream): take it from wherever it comes.
    const elsewhere = this.#router.awaitResponse(scope.id);
    const local = new AbortController();
    const off = onAbort(signal, () => local.abort(signal.reason));
    try {
      return await Promise.race([this.#resumeLoop(scope, cursor, local.signal), elsewhere.response]);
    } finally {
      elsewhere.release();
      off();
      local.abort(new TransportError('closed', 'The response arrived'));
    }
  }

  async #resumeLoop(scope: StreamScope, cursor: StreamCursor, signal: AbortSignal): Promise<TransportResponse> {
    for (let failures = 0; ; ) {
      await delay(this.#policy.delay(cursor.retry, failures), signal);
      const before = cursor.lastEventId;
      const sent = this.#id;
      let outcome: TransportResponse | undefined;
      try {
        outcome = await this.#get(cursor, signal, async (res) => {
          await this.#refuseGone(res, sent);
          if (res.status === 405) {
            await discard(res);
            throw new TransportError('closed', 'The SSE stream ended before the response; the server allows no GET');
          }
          if (isEventStream(res)) return this.#router.consume(res.body, scope, cursor);
          await discard(res);
          return undefined;
        });
      } catch (error) {
        if (signal.aborted || !(error instanceof TransportError) || error.code !== 'send_failed') throw error;
      }
      if (outcome !== undefined) return outcome;
      failures = cursor.lastEventId === before ? failures + 1 : 0;
      if (failures >= this.#policy.maxAttempts) {
        throw new TransportError('closed', 'The SSE stream ended before the response and could not be resumed');
      }
    }
  }

  /** One GET in the session (the POST-stream resume and the GET stream), after `cursor.lastEventId` when set. */
  #get<T>(cursor: StreamCursor, signal: AbortSignal, read: (res: Response) => Promise<T>): Promise<T> {
    const headers = getHeaders(this.#id, this.#version, cursor.lastEventId);
    return this.#channel.exchange({ method: 'GET', headers, signal }, read);
  }

  /** Opens the GET stream once the session is initialized and someone receives what it carries. */
  #listen(): void {
    if (this.#listening !== undefined || this.#listenRefused || !this.#initialized) return;
    if (this.#peer.handler === undefined || this.#channel.closed) return;
    const controller = new AbortController();
    this.#listening = controller;
    void this.#listenLoop(controller.signal)
      .catch(() => {})
      .finally(() => {
        if (this.#listening === controller) this.#listening = undefined;
      });
  }

  /** Keeps the GET stream open while the session lives: 405 and other 4xx end it, drops reconnect with backoff. */
  async #listenLoop(signal: AbortSignal): Promise<void> {
    const cursor: StreamCursor = { frames: 0 };
    for (let failures = 0; !signal.aborted; ) {
      const seen = cursor.frames;
      let outcome: 'ended' | 'failed' | 'stop';
      try {
        outcome = await this.#get(cursor, signal, async (res) => {
          if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
            if (res.status === 405) this.#listenRefused = true;
            await discard(res);
            return 'stop';
          }
          if (!isEventStream(res)) {
            await discard(res);
            return 'failed';
          }
          await this.#router.consume(res.body, undefined, cursor);
          return 'ended';
        });
      } catch {
        if (signal.aborted) return;
        outcome = 'failed';
      }
      if (outcome === 'stop') return;
      failures = outcome === 'ended' && cursor.frames > seen ? 0 : failures + 1;
      if (failures >= this.#policy.maxAttempts) return;
      await delay(this.#policy.delay(cursor.retry, failures), signal);
    }
  }
}
