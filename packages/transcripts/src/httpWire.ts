import type { TransportNotification } from '@mcp-tasks/protocol';
import { mcpNameField, readSseEvents } from '@mcp-tasks/transport-http/client';
import type { Exchange, Wire, WireRequestOptions } from './wire.js';

/** Options of {@link openHttpWire}. */
export interface HttpWireOptions {
  /** The server's Streamable HTTP endpoint (`http(s)://…`); every request is a POST to it. */
  readonly url: string;
  /** Headers sent with every request of the main principal (e.g. `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Headers of the second principal; undefined when none is configured. */
  readonly otherHeaders?: Readonly<Record<string, string>> | undefined;
  /** The MCP protocol version sent in the computed `mcp-protocol-version` header. */
  readonly protocolVersion: string;
}

/**
 * Streamable HTTP with plain `fetch`, so the status and headers of every exchange are seen as they are (the
 * package's HTTP client transport resolves JSON-RPC errors and hides the status). One POST per request; a
 * `text/event-stream` answer is read event by event.
 */
export function openHttpWire(options: HttpWireOptions): Wire {
  let nextId = 1;
  return {
    kind: 'http',
    otherUnavailable: options.otherHeaders === undefined ? 'no second principal configured (--other-token)' : undefined,
    async request(message, request) {
      const id = nextId++;
      const headers = request.headers ?? routingHeaders(message.method, message.params, options.protocolVersion);
      const credentials = request.as === 'other' ? options.otherHeaders : options.headers;
      const response = await fetch(options.url, {
        method: 'POST',
        headers: { ...headers, ...credentials },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: message.method, params: message.params }),
        ...(request.signal === undefined ? {} : { signal: request.signal }),
      });
      const http = {
        requestHeaders: headers,
        status: response.status,
        contentType: (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '',
      };
      request.onHttpHead?.(http);
      return { response: await readBody(response, id, http.contentType, request), http };
    },
    close: async () => undefined,
  };
}

/** The routing headers a Streamable HTTP client sends for a request (`Mcp-Method`, `Mcp-Name`, version). */
export function routingHeaders(method: string, params: unknown, protocolVersion: string): Record<string, string> {
  const field = mcpNameField(method);
  const name = field === undefined ? undefined : (params as Record<string, unknown> | undefined)?.[field];
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': protocolVersion,
    'mcp-method': method,
    ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
  };
}

async function readBody(
  response: Response,
  id: number,
  contentType: string,
  request: WireRequestOptions,
): Promise<Exchange['response']> {
  if (contentType !== 'text/event-stream') {
    const text = await response.text();
    if (text === '') return undefined;
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      return { unparseable: text };
    }
  }
  if (response.body === null) return undefined;
  try {
    for await (const data of readSseEvents(response.body)) {
      const message = JSON.parse(data) as Record<string, unknown>;
      if ('id' in message && message.id === id && !('method' in message)) return message;
      if ('method' in message) request.onNotification?.(message as unknown as TransportNotification);
    }
  } catch (error) {
    if (request.signal?.aborted === true) return undefined;
    throw error;
  }
  return undefined;
}
