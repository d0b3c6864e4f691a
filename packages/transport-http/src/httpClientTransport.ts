import {
  type ClientPeerHandler,
  type ClientRequestOptions,
  type ClientTransport,
  ErrorCode,
  encodeHeaderValue,
  isRecord,
  META,
  messageEra,
  TransportError,
  type TransportNotification,
  type TransportRequest,
  type TransportResponse,
  withFields,
} from '@mcp-tasks/protocol';
import { CloseSignal } from '@mcp-tasks/transport-kit';
import type { HttpReconnectOptions } from './era-2025/index.js';
import { LegacySession } from './era-2025/index.js';
import { type FetchLike, type HeaderSource, HttpChannel } from './httpChannel.js';
import { isResponseTo, readJsonReply } from './readJsonReply.js';
import { readSseEvents } from './readSseEvents.js';
import { mcpNameField } from './routingHeaders.js';
import { ToolParamHeaders } from './toolParamHeaders.js';

/** Options of {@link HttpClientTransport}. */
export interface HttpClientTransportOptions {
  /** The MCP endpoint. */
  readonly url: string | URL;
  /** A bearer token (or a function producing the current one), sent as `Authorization: Bearer …`. */
  readonly token?: string | (() => string | undefined | Promise<string | undefined>);
  /** Extra headers for every request (or a function producing them per request). They cannot override MCP headers. */
  readonly headers?: HeaderSource;
  /**
   * The fetch to use. Default: the global `fetch`, which runs everywhere. On Node, `nodeHttpFetch()` (from
   * `@mcp-tasks/transport-http`) costs the client about a quarter less CPU per request and far less garbage (see
   * its documentation).
   */
  readonly fetch?: FetchLike | undefined;
  /**
   * Receives a message per tool dropped from `tools/list` for an invalid `x-mcp-header`, per peer handler that
   * failed (its server request is answered `-32603`), and per response to a server request that could not be
   * delivered. Default `console.warn`.
   */
  readonly warn?: (message: string) => void;
  /**
   * How a 2025-era session reconnects its SSE streams (the GET stream, and a POST stream that ended before its
   * response). Default: 1 s when the server sent no `retry`, doubling per failure up to 30 s, 5 attempts.
   */
  readonly reconnect?: HttpReconnectOptions;
  /**
   * Requests from the server (2025-era sessions) the peer handler may be running at once; one more is answered
   * `-32600` with `data.limit: 'maxServerRequests'`, and one whose id is still running `-32600` too. @default 64
   */
  readonly maxServerRequests?: number;
}

/** The `_meta` of a `tools/list` the transport sends on its own: the envelope of the call that needed it. */
function envelopeOf(message: TransportRequest): Record<string, unknown> {
  const meta = message.params?._meta;
  const envelope: Record<string, unknown> = {};
  if (!isRecord(meta)) return envelope;
  for (const key of [META.protocolVersion, META.clientCapabilities, META.clientInfo]) {
    if (meta[key] !== undefined) envelope[key] = meta[key];
  }
  return envelope;
}

function sameHeaders(a: readonly [string, string][], b: readonly [string, string][]): boolean {
  return a.length === b.length && a.every(([name, value], i) => b[i]?.[0] === name && b[i]?.[1] === value);
}

/**
 * The Streamable HTTP client transport, built on `fetch` only, so it runs in Node 20+ and browsers. It speaks both
 * protocol eras, choosing per message with `messageEra`: a message whose `_meta` carries the 2026-07-28 envelope
 * travels as below; any other (2025-era `initialize` and everything after it, responses to server requests) joins
 * the 2025-era session described further down.
 *
 * 2026-07-28: every message is its own POST carrying `Accept: application/json, text/event-stream`, `Mcp-Method`,
 * `Mcp-Name` where the method has one (Base64 sentinel when not header-safe), `MCP-Protocol-Version` from the
 * message's `_meta`, and, on `tools/call`, `Mcp-Param-*` for the arguments the tool's input schema annotates with
 * `x-mcp-header`. The transport learns the annotations from every `tools/list` result it carries (dropping tools
 * with invalid annotations from it, as HTTP clients must); before calling a tool it has not seen listed, it lists
 * the server's tools itself (once, all pages, with the call's `_meta` envelope), so the first call is correct with
 * no prior `tools/list`. When the server still answers -32020 HeaderMismatch (the tool changed), it lists again
 * and retries the call once if that changes the headers. `notifications/tools/list_changed` on any stream makes it
 * forget what it learned.
 *
 * Responses: a JSON body, or an SSE stream whose notifications go to `onNotification` in order before the request
 * resolves. A non-2xx status resolves with its JSON-RPC error body when it has one, and otherwise rejects with
 * `TransportError('http_status')` carrying `status`; 401 and 403 always reject that way (the body's message kept in
 * the error's message, the body's error as its `cause`), so a host can tell a refused token or origin by status.
 * Aborting `options.signal` aborts the fetch (closing the stream, which is how HTTP cancels a request or ends a
 * listen) and rejects with the signal's reason.
 *
 * 2025-era session: no 2026 routing headers. The `Mcp-Session-Id` of the response to `initialize` and the
 * `protocolVersion` of its result are sent as `Mcp-Session-Id` and `MCP-Protocol-Version` on every later POST,
 * GET and DELETE; a new `initialize` starts over without them. A server without sessions works too (no id, no
 * session header). A 404 to a message that carried the session id means the server ended the session: the
 * transport forgets it and rejects with `TransportError('http_status')`, `status` 404, so the client initializes
 * again. SSE events without data (priming events) are skipped; when a request's stream ends before its response
 * after the server gave an event id, the transport waits the server's `retry` (see `reconnect`) and resumes with
 * GET + `Last-Event-ID`, taking the response from there (or from any other stream that carries it). Server requests
 * on any stream go to the {@link ClientPeerHandler} (see {@link setPeerHandler}) and its response is POSTed back;
 * `notifications/cancelled` naming one aborts the signal given to the handler, and no response is sent. Progress
 * notifications whose `progressToken` is the request's go to its `onNotification`; other notifications go to the
 * peer handler's `onNotification` (without one, to the request's `onNotification`, or nowhere on the GET stream).
 * After `notifications/initialized` has been sent and while a peer handler is installed, the transport keeps a GET
 * stream open for messages outside any request: 405 (no GET stream offered) or another 4xx ends it for the
 * session; a drop reconnects after the server's `retry`, backing off on failures. Aborting a request's signal also
 * POSTs `notifications/cancelled` naming it (never for `initialize`): in this era closing a stream does not cancel
 * anything. {@link close} DELETEs the session
 * (waiting at most 2 s, any answer accepted) after ending everything in flight.
 */
export class HttpClientTransport implements ClientTransport {
  readonly #options: HttpClientTransportOptions;
  readonly #channel: HttpChannel;
  readonly #legacy: LegacySession;
  readonly #toolHeaders = new ToolParamHeaders();
  readonly #close = new CloseSignal();
  /**
   * Resolves with `initiator: 'local'` once {@link close} was called. HTTP has no connection to lose: each request
   * is its own exchange, so a server that went away shows up as failed requests, never here.
   */
  readonly closed = this.#close.closed;
  #listing: Promise<void> | undefined;
  #listings = 0;

  /**
   * Creates the transport; nothing is sent until the first request. One instance serves one endpoint for its whole
   * life: after {@link close} every request rejects.
   */
  constructor(options: HttpClientTransportOptions) {
    this.#options = options;
    this.#channel = new HttpChannel(options);
    this.#legacy = new LegacySession(this.#channel, {
      reconnect: options.reconnect,
      maxServerRequests: options.maxServerRequests,
      warn: (message) => this.#warn(message),
      onToolsChanged: () => this.#toolHeaders.invalidate(),
    });
  }

  /** The `Mcp-Session-Id` of the current 2025-era session, or undefined when there is none. */
  get sessionId(): string | undefined {
    return this.#legacy.sessionId;
  }

  /**
   * Installs the receiver of server requests and of notifications outside the client's requests in a 2025-era
   * session, replacing any earlier one; opens the GET stream if the session is initialized. See the class notes.
   */
  setPeerHandler(handler: ClientPeerHandler): void {
    this.#legacy.setPeerHandler(handler);
  }

  async request(message: TransportRequest, options: ClientRequestOptions = {}): Promise<TransportResponse> {
    if (this.#close.isSettled) throw new TransportError('closed', 'Transport closed');
    if (messageEra(message) === 'legacy') return this.#legacy.request(message, options);
    const name = message.params?.name;
    if (message.method !== 'tools/call' || typeof name !== 'string') return this.#send(message, options);
    if (this.#toolHeaders.needsListing(name)) await this.#listTools(message);
    const sent = this.#toolHeaders.headersFor(name, message.params?.arguments);
    const response = await this.#send(message, options);
    if (!('error' in response) || response.error.code !== ErrorCode.HeaderMismatch) return response;
    // A rejected call did nothing on the server, so it is safe to repeat once the tool's annotations are fresh.
    this.#toolHeaders.invalidate();
    await this.#listTools(message);
    const fresh = this.#toolHeaders.headersFor(name, message.params?.arguments);
    return sameHeaders(sent, fresh) ? response : this.#send(message, options);
  }

  /** Lists every page of the server's tools (one listing at a time, shared by concurrent calls). */
  async #listTools(call: TransportRequest): Promise<void> {
    this.#listing ??= this.#readListing(envelopeOf(call)).finally(() => {
      this.#listing = undefined;
    });
    await this.#listing;
  }

  async #readListing(meta: Record<string, unknown>): Promise<void> {
    let cursor: string | undefined;
    try {
      do {
        const params = cursor === undefined ? { _meta: meta } : { cursor, _meta: meta };
        const id = `tools-list-${++this.#listings}`;
        const response = await this.#send({ jsonrpc: '2.0', id, method: 'tools/list', params }, {});
        // A server that answers tools/list with an error has no listing to offer: do not ask before every call.
        if (!('result' in response)) break;
        const next = response.result.nextCursor;
        cursor = typeof next === 'string' ? next : undefined;
      } while (cursor !== undefined);
      this.#toolHeaders.markComplete();
    } catch {
      // The call goes ahead without what the listing would have told; its own answer shows what went wrong.
    }
  }

  async #send(message: TransportRequest, options: ClientRequestOptions): Promise<TransportResponse> {
    const call = { method: 'POST', headers: this.#headers(message), body: JSON.stringify(message) } as const;
    const response = await this.#channel.exchange(withFields(call, { signal: options.signal }), async (res, signal) => {
      const type = res.headers.get('content-type') ?? '';
      if (type.startsWith('text/event-stream') && res.body !== null && res.ok) {
        return this.#readStream(res.body, message.id, options.onNotification, signal);
      }
      return readJsonReply(res, message.id);
    });
    return message.method === 'tools/list' ? this.#filterTools(message, response) : response;
  }

  async notify(message: TransportNotification): Promise<void> {
    if (this.#close.isSettled) throw new TransportError('closed', 'Transport closed');
    if (messageEra(message) === 'legacy') return this.#legacy.notify(message);
    const call = { method: 'POST', headers: this.#headers(message), body: JSON.stringify(message) } as const;
    await this.#channel.exchange(call, async (res) => {
      await res.body?.cancel();
      if (!res.ok)
        throw new TransportError('http_status', `HTTP ${res.status} for a notification`, { status: res.status });
    });
  }

  async close(): Promise<void> {
    if (!this.#close.settle({ initiator: 'local' })) return;
    this.#channel.abortAll(new TransportError('closed', 'Transport closed'));
    await this.#legacy.close();
  }

  #warn(message: string): void {
    (this.#options.warn ?? ((m) => console.warn(m)))(message);
  }

  #headers(message: TransportRequest | TransportNotification): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-method': message.method,
    };
    const params = message.params;
    const version = isRecord(params?._meta) ? params._meta[META.protocolVersion] : undefined;
    if (typeof version === 'string') headers['mcp-protocol-version'] = version;
    const nameField = mcpNameField(message.method);
    const name = nameField === undefined ? undefined : params?.[nameField];
    if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
    if (message.method === 'tools/call' && typeof name === 'string') {
      for (const [header, value] of this.#toolHeaders.headersFor(name, params?.arguments)) headers[header] = value;
    }
    return headers;
  }

  async #readStream(
    body: ReadableStream<Uint8Array>,
    id: TransportRequest['id'],
    onNotification: ClientRequestOptions['onNotification'],
    signal: AbortSignal,
  ): Promise<TransportResponse> {
    for await (const data of readSseEvents(body)) {
      let message: unknown;
      try {
        message = JSON.parse(data);
      } catch (cause) {
        throw new TransportError('malformed_frame', 'SSE event is not valid JSON', { cause });
      }
      if (isResponseTo(message, id)) return message;
      // Only notifications may precede the response; a server request on the stream is a protocol violation.
      if (isRecord(message) && typeof message.method === 'string' && !('id' in message)) {
        if (message.method === 'notifications/tools/list_changed') this.#toolHeaders.invalidate();
        if (!signal.aborted) onNotification?.(message as unknown as TransportNotification);
      }
    }
    throw new TransportError('closed', 'The SSE stream ended before the response');
  }

  #filterTools(request: TransportRequest, response: TransportResponse): TransportResponse {
    if (!('result' in response) || !Array.isArray(response.result.tools)) return response;
    const tools = response.result.tools as readonly unknown[];
    const kept = this.#toolHeaders.observe(tools, (m) => this.#warn(m));
    // A first page that is also the last is the whole list.
    if (request.params?.cursor === undefined && response.result.nextCursor === undefined) {
      this.#toolHeaders.markComplete();
    }
    return kept === tools ? response : { ...response, result: { ...response.result, tools: kept } };
  }
}
