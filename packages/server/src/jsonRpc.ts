import { isRecord, type JsonObject, type TransportRequestId } from '@mcp-tasks/protocol';

export type { JsonObject };

/** The outcome of reading one inbound message: a request, a notification, a response, or garbage. */
export type InboundMessage =
  | { readonly kind: 'request'; readonly id: TransportRequestId; readonly method: string; readonly params: JsonObject }
  | { readonly kind: 'notification'; readonly method: string }
  /** A JSON-RPC response from the peer; a 2026-07-28 server never sends requests, so it is dropped. */
  | { readonly kind: 'response' }
  | { readonly kind: 'invalid'; readonly id: TransportRequestId | null; readonly message: string };

/** True for a plain (non-array, non-null) object: the protocol's `isRecord`, typed as the runtime's `JsonObject`. */
export const isJsonObject: (value: unknown) => value is JsonObject = isRecord;

function isRequestId(value: unknown): value is TransportRequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

/**
 * Classifies one parsed message without throwing. The id of an invalid request is echoed when it can be read, as
 * JSON-RPC requires; otherwise it is null.
 */
export function readInboundMessage(message: unknown): InboundMessage {
  if (!isJsonObject(message)) {
    return { kind: 'invalid', id: null, message: 'Invalid Request: a JSON-RPC message must be a JSON object' };
  }
  const rawId = message.id;
  const id = isRequestId(rawId) ? rawId : null;
  if (message.jsonrpc !== '2.0') {
    return { kind: 'invalid', id, message: 'Invalid Request: "jsonrpc" must be "2.0"' };
  }
  if (!('method' in message) && ('result' in message || 'error' in message)) return { kind: 'response' };
  if (typeof message.method !== 'string' || message.method.length === 0) {
    return { kind: 'invalid', id, message: 'Invalid Request: "method" must be a non-empty string' };
  }
  if (message.params !== undefined && !isJsonObject(message.params)) {
    return { kind: 'invalid', id, message: 'Invalid Request: "params" must be an object' };
  }
  if (rawId === undefined) return { kind: 'notification', method: message.method };
  if (id === null) {
    return { kind: 'invalid', id: null, message: 'Invalid Request: "id" must be a string or an integer' };
  }
  return { kind: 'request', id, method: message.method, params: message.params ?? {} };
}
