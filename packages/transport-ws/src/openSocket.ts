import { TransportError } from '@mcp-tasks/protocol';
import { BEARER_SUBPROTOCOL_PREFIX, MCP_SUBPROTOCOL } from './subprotocol.js';
import type { WebSocketClientOptions, WebSocketConstructor, WebSocketLike } from './webSocketClientOptions.js';

/** Opens one socket; resolves when open with subprotocol `mcp` selected, else rejects with `TransportError('closed')`. */
export function openSocket(
  Impl: WebSocketConstructor,
  url: string,
  options: WebSocketClientOptions,
): Promise<WebSocketLike> {
  const protocols = [MCP_SUBPROTOCOL];
  if (options.token !== undefined) protocols.push(BEARER_SUBPROTOCOL_PREFIX + options.token);
  return new Promise((resolve, reject) => {
    let socket: WebSocketLike;
    try {
      socket = new Impl(url, protocols, options.headers ? { headers: { ...options.headers } } : undefined);
    } catch (cause) {
      reject(new TransportError('closed', 'Could not open the WebSocket', { cause }));
      return;
    }
    // Browsers give no detail on errors; `ws` says why (a refused upgrade's HTTP status, a refused connection), and
    // the close event that follows carries the code.
    let detail: string | undefined;
    socket.onerror = (event: { message?: unknown }) => {
      if (typeof event?.message === 'string' && event.message !== '') detail = event.message;
    };
    socket.onclose = (event: { code: number }) => reject(notOpened(event.code, detail));
    socket.onopen = () => {
      if (socket.protocol === MCP_SUBPROTOCOL) resolve(socket);
      else socket.close(1002, 'Subprotocol "mcp" was not selected');
    };
  });
}

/** The error for a socket that closed before opening: an HTTP status when the server refused the upgrade. */
function notOpened(code: number, detail: string | undefined): TransportError {
  const status = /Unexpected server response: (\d{3})/.exec(detail ?? '')?.[1];
  if (status !== undefined)
    return new TransportError('http_status', `The server refused the WebSocket upgrade with HTTP ${status}`, {
      status: Number(status),
    });
  return new TransportError(
    'closed',
    `The WebSocket closed before opening (code ${code}${detail ? `: ${detail}` : ''})`,
  );
}
