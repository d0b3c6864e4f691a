import type { Duplex } from 'node:stream';
import type { ServerSession } from '@mcp-tasks/transport-kit';
import type { RawData, WebSocket } from 'ws';

/** What the server keeps per open socket. */
export interface WebSocketConnection {
  readonly session: ServerSession;
  /** The upgraded TCP socket under the WebSocket, corked for one tick while frames are being written. */
  readonly socket: Duplex;
  alive: boolean;
  /** `Date.now()` of the last frame in either direction (the idle timeout counts from it). */
  lastActive: number;
  paused: boolean;
  corked: boolean;
}

/** Output limits of one socket (see `WebSocketServerOptions.highWaterMark` and `maxBufferedBytes`). */
export interface OutputLimits {
  readonly highWaterMark: number;
  readonly maxBufferedBytes: number;
  readonly onError?: (error: Error) => void;
}

/**
 * Writes one frame, applying backpressure: pause reading above the high-water mark, drop the peer above the cap.
 * Frames written in the same tick (responses finishing together, a burst of notifications) leave in one write
 * syscall: the socket stays corked until the next tick. Order is unchanged; corking only delays the flush.
 */
export function sendFrame(ws: WebSocket, connection: WebSocketConnection, text: string, limits: OutputLimits): void {
  if (ws.readyState !== ws.OPEN) return;
  connection.lastActive = Date.now();
  const { highWaterMark } = limits;
  if (!connection.corked) {
    connection.corked = true;
    connection.socket.cork();
    process.nextTick(uncork, connection);
  }
  // The write callback is what resumes a paused peer, but it costs a closure and a stream callback per frame, so
  // it is passed only when this frame may be the one that pauses (a UTF-8 frame is at most 3 bytes per UTF-16
  // unit plus a 10-byte header) or the peer is already paused.
  const mayPause = connection.paused || ws.bufferedAmount + 3 * text.length + 10 > highWaterMark;
  ws.send(
    text,
    mayPause
      ? (error) => {
          if (!error && connection.paused && ws.bufferedAmount < highWaterMark / 2) {
            connection.paused = false;
            ws.resume();
          }
        }
      : undefined,
  );
  if (ws.bufferedAmount > limits.maxBufferedBytes) {
    limits.onError?.(new Error('Dropped a WebSocket peer that is not reading its messages'));
    ws.terminate();
  } else if (!connection.paused && ws.bufferedAmount > highWaterMark) {
    connection.paused = true;
    ws.pause();
  }
}

function uncork(connection: WebSocketConnection): void {
  connection.corked = false;
  connection.socket.uncork();
}

/** The bytes of one received message, however ws delivered them. */
export function frameBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.isBuffer(data) ? data : new Uint8Array(data);
}

/** Answers an upgrade with an HTTP status and closes the socket. */
export function refuseUpgrade(
  socket: Duplex,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  // A header value is written raw here: a line break in one (a hook's own challenge) must not start a new header.
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value.replace(/[\r\n]+/g, ' ')}\r\n`);
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\n${extra.join('')}Content-Length: 0\r\n\r\n`);
}
