import {
  isRecord,
  ProtocolError,
  TransportError,
  type TransportRequest,
  type TransportResponse,
} from '@mcp-tasks/protocol';

/** True when `value` is the JSON-RPC response to the request with `id`. */
export function isResponseTo(value: unknown, id: TransportRequest['id']): value is TransportResponse {
  return isRecord(value) && value.jsonrpc === '2.0' && value.id === id && ('result' in value || 'error' in value);
}

function isErrorResponse(value: unknown): value is Extract<TransportResponse, { error: unknown }> {
  return isRecord(value) && value.jsonrpc === '2.0' && isRecord(value.error) && typeof value.error.code === 'number';
}

/**
 * Reads a non-SSE answer to the request with `id`: a 2xx JSON response to it, or a non-2xx JSON-RPC error body
 * (resolved, except 401 and 403, which reject with `TransportError('http_status')`). Anything else rejects:
 * `http_status` for a non-2xx without an error body, `malformed_frame` for a 2xx that is not the response.
 */
export async function readJsonReply(res: Response, id: TransportRequest['id']): Promise<TransportResponse> {
  const text = await res.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (res.ok && isResponseTo(body, id)) return body;
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
}
