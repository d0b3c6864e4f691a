import { type ErrorCode, encodeMessage, jsonRpcError, type TransportRequestId } from '@mcp-tasks/protocol';

/**
 * A complete HTTP response as the binding decides it, before any I/O: each front (fetch, node:http) writes it its
 * own way. `body` is JSON text, or undefined for an empty body.
 */
export interface HttpReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/** The head of every JSON body the binding sends (the node front adds `content-length`). */
export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });

/** The head of an SSE response: no caching, and no buffering by proxies that honour `X-Accel-Buffering`. */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
});

/** One SSE event carrying one JSON-RPC message. */
export function sseEvent(message: unknown): string {
  return `event: message\ndata: ${encodeMessage(message)}\n\n`;
}

/** The SSE comment sent on a quiet stream so proxies and clients do not time it out. */
export const SSE_KEEP_ALIVE = ':\n\n';

/**
 * A JSON-RPC error as an HTTP reply. `id` is omitted when the request could not be read (unparseable body), as the
 * 2026-07-28 schema requires.
 */
export function errorReply(
  status: number,
  code: ErrorCode,
  message: string,
  id?: TransportRequestId,
  extraHeaders?: Readonly<Record<string, string>>,
  data?: unknown,
): HttpReply {
  const headers = extraHeaders === undefined ? JSON_HEADERS : { ...extraHeaders, ...JSON_HEADERS };
  const error = data === undefined ? { code, message } : { code, message, data };
  return Object.freeze({ status, headers, body: JSON.stringify(jsonRpcError(id, error)) });
}
