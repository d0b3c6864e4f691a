import {
  type ClientRequestOptions,
  type ClientTransport,
  ErrorCode,
  encodeHeaderValue,
  isRecord,
  META,
  ProtocolError,
  TransportError,
  type TransportNotification,
  type TransportRequest,
  type TransportResponse,
} from '@mcp-tasks/protocol';
import { CloseSignal } from '@mcp-tasks/transport-kit';
import { readSseEvents } from './readSseEvents.js';
import { mcpNameField } from './routingHeaders.js';
import { ToolParamHeaders } from './toolParamHeaders.js';

type HeaderSource =
  | Readonly<Record<string, string>>
  | (() => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);

/** Options of {@link HttpClientTransport}. */
export interface HttpClientTransportOptions {
  /** The MCP endpoint. */
  readonly url: string | URL;
  /** A bearer token (or a function producing the current one), sent as `Authorization: Bearer …`. */
  readonly token?: string | (() => string | undefined | Promise<string | undefined>);
  /** Extra headers for every POST (or a function producing them per request). They cannot override MCP headers. */
  readonly headers?: HeaderSource;
  /** The fetch to use. Default: the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Receives a message per tool dropped from `tools/list` for an invalid `x-mcp-header`. Default `console.warn`. */
  readonly warn?: (message: string) => void;
}

function isResponseTo(value: unknown, id: TransportRequest['id']): value is TransportResponse {
  return isRecord(value) && value.jsonrpc === '2.0' && value.id === id && ('result' in value || 'error' in value);
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

function isErrorResponse(value: unknown): value is Extract<TransportResponse, { error: unknown }> {
  return isRecord(value) && value.jsonrpc === '2.0' && isRecord(value.error) && typeof value.error.code === 'number';
}

/**
 * The Streamable HTTP client transport (MCP 2026-07-28), built on `fetch` only, so it runs in Node 20+ and browsers.
 *
 * Every message is its own POST carrying `Accept: application/json, text/event-stream`, `Mcp-Method`, `Mcp-Name`
 * where the method has one (Base64 sentinel when not header-safe), `MCP-Protocol-Version` from the message's
 * `_meta`, and, on `tools/call`, `Mcp-Param-*` for the arguments the tool's input schema annotates with
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
 * the error's message, the body's error as its `cause`), so a host can tell a refused token or origin by status. Aborting `options.signal` aborts the fetch (closing the stream, which is how
 * HTTP cancels a request or ends a listen) and rejects with the signal's reason.
 */
export class HttpClientTransport implements ClientTransport {
  readonly #url: string;
  readonly #options: HttpClientTransportOptions;
  readonly #fetch: typeof fetch;
  readonly #inFlight = new Set<AbortController>();
  readonly #toolHeaders = new ToolParamHeaders();
  readonly #close = new CloseSignal();
  /**
   * Resolves with `initiator: 'local'` once {@link close} was called. HTTP has no connection to lose: each request
   * is its own exchange, so a server that went away shows up as failed requests, never here.
   */
  readonly closed = this.#close.closed;
  #listing: Promise<void> | undefined;
  #listings = 0;

  constructor(options: HttpClientTransportOptions) {
    this.#url = String(options.url);
    this.#options = options;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  async request(message: TransportRequest, options: ClientRequestOptions = {}): Promise<TransportResponse> {
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
    const response = await this.#exchange(message, options, async (res, signal) => {
      const type = res.headers.get('content-type') ?? '';
      if (type.startsWith('text/event-stream') && res.body !== null && res.ok) {
        return this.#readStream(res.body, message.id, options.onNotification, signal);
      }
      const text = await res.text();
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = undefined;
      }
      if (res.ok && isResponseTo(body, message.id)) return body;
      if (!res.ok && isErrorResponse(body)) {
        // 401 and 403 refuse the exchange (credentials, origin), not the request: say so with the status, which a
        // JSON-RPC error would lose, and keep the server's message. Other statuses carry the request's own error.
        if (res.status !== 401 && res.status !== 403) return body;
        throw new TransportError('http_status', `HTTP ${res.status}: ${body.error.message}`, {
          status: res.status,
          cause: ProtocolError.fromError(body.error),
        });
      }
      if (!res.ok)
        throw new TransportError('http_status', `HTTP ${res.status} without a JSON-RPC error body`, {
          status: res.status,
        });
      throw new TransportError('malformed_frame', `HTTP ${res.status} response is not a JSON-RPC response`);
    });
    return message.method === 'tools/list' ? this.#filterTools(message, response) : response;
  }

  async notify(message: TransportNotification): Promise<void> {
    await this.#exchange(message, {}, async (res) => {
      await res.body?.cancel();
      if (!res.ok)
        throw new TransportError('http_status', `HTTP ${res.status} for a notification`, { status: res.status });
    });
  }

  async close(): Promise<void> {
    if (!this.#close.settle({ initiator: 'local' })) return;
    const error = new TransportError('closed', 'Transport closed');
    for (const controller of this.#inFlight) controller.abort(error);
    this.#inFlight.clear();
  }

  /** POSTs one message with its headers and hands the response to `read`, owning abort and cleanup. */
  async #exchange<T>(
    message: TransportRequest | TransportNotification,
    options: ClientRequestOptions,
    read: (res: Response, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    if (this.#close.isSettled) throw new TransportError('closed', 'Transport closed');
    const userSignal = options.signal;
    userSignal?.throwIfAborted();
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(userSignal?.reason);
    userSignal?.addEventListener('abort', onAbort, { once: true });
    this.#inFlight.add(controller);
    try {
      const headers = await this.#headers(message);
      let res: Response;
      try {
        res = await this.#fetch(this.#url, {
          method: 'POST',
          headers,
          body: JSON.stringify(message),
          signal: controller.signal,
        });
      } catch (cause) {
        if (controller.signal.aborted) throw controller.signal.reason;
        throw new TransportError('send_failed', `POST ${this.#url} failed`, { cause });
      }
      try {
        return await read(res, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) throw controller.signal.reason;
        throw error;
      }
    } finally {
      userSignal?.removeEventListener('abort', onAbort);
      this.#inFlight.delete(controller);
    }
  }

  async #headers(message: TransportRequest | TransportNotification): Promise<Record<string, string>> {
    const { headers: extra, token } = this.#options;
    const base = typeof extra === 'function' ? await extra() : extra;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(base ?? {})) headers[name.toLowerCase()] = value;
    const bearer = typeof token === 'function' ? await token() : token;
    if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`;
    headers.accept = 'application/json, text/event-stream';
    headers['content-type'] = 'application/json';
    headers['mcp-method'] = message.method;
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
    const kept = this.#toolHeaders.observe(tools, this.#options.warn ?? ((m) => console.warn(m)));
    // A first page that is also the last is the whole list.
    if (request.params?.cursor === undefined && response.result.nextCursor === undefined) {
      this.#toolHeaders.markComplete();
    }
    return kept === tools ? response : { ...response, result: { ...response.result, tools: kept } };
  }
}
