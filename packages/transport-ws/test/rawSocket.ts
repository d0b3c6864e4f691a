import WebSocket from 'ws';

/**
 * Opens a bare socket offering `mcp`, registering its teardown in `cleanup`; rejects with `status N retry-after R`
 * when the upgrade is refused.
 */
export function rawSocket(url: string, cleanup: (() => unknown)[]): Promise<WebSocket> {
  const socket = new WebSocket(url, ['mcp']);
  cleanup.push(() => socket.terminate());
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) =>
      reject(new Error(`status ${res.statusCode} retry-after ${res.headers['retry-after']}`)),
    );
    socket.once('error', reject);
  });
}

/** The next message the server sends on `socket`, parsed. */
export const nextMessage = (socket: WebSocket): Promise<Record<string, unknown>> =>
  new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)))));
