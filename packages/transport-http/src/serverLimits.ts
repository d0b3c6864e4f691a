import type { IncomingMessage, Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode } from '@mcp-tasks/protocol';
import { ConnectionLimiter, type ConnectionRefusal } from '@mcp-tasks/transport-kit';
import { errorReply, type HttpReply } from './httpReply.js';

/** Connection limits of the node:http server {@link listen} starts. Every field is optional. */
export interface HttpServerLimits {
  /** Connections open at once; one more gets 503 with `Retry-After` on its first request. Default 1024. */
  readonly maxConnections?: number;
  /** Connections open at once from one client address; one more gets 429 with `Retry-After`. HTTP/1.1 clients open one connection per concurrent request, so this is the per-client concurrency bound. Default 256. */
  readonly maxConnectionsPerClient?: number;
  /** Time allowed to receive a request's headers, from the connection's start; then 408 and close. Default 10000. */
  readonly headersTimeoutMs?: number;
  /** Time allowed to receive a whole request, body included; then 408 and close. Default 30000. */
  readonly requestTimeoutMs?: number;
  /** An idle keep-alive connection (nothing in flight) is closed after this long. Default 5000. */
  readonly keepAliveTimeoutMs?: number;
}

/** The defaults of {@link HttpServerLimits}. */
export const HTTP_LIMIT_DEFAULTS = Object.freeze({
  /** Same as {@link HttpServerLimits.maxConnections}. */
  maxConnections: 1024,
  /** Same as {@link HttpServerLimits.maxConnectionsPerClient}. */
  maxConnectionsPerClient: 256,
  /** Same as {@link HttpServerLimits.headersTimeoutMs}. */
  headersTimeoutMs: 10_000,
  /** Same as {@link HttpServerLimits.requestTimeoutMs}. */
  requestTimeoutMs: 30_000,
  /** Same as {@link HttpServerLimits.keepAliveTimeoutMs}. */
  keepAliveTimeoutMs: 5_000,
});

/** `Retry-After` (seconds) sent when a connection cap is reached. */
const RETRY_AFTER_SECONDS = '5';

/** The node:http server options that enforce the timeouts of `limits`. */
export function serverOptions(limits: HttpServerLimits): ServerOptions {
  const headersTimeout = limits.headersTimeoutMs ?? HTTP_LIMIT_DEFAULTS.headersTimeoutMs;
  return {
    headersTimeout,
    requestTimeout: limits.requestTimeoutMs ?? HTTP_LIMIT_DEFAULTS.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs ?? HTTP_LIMIT_DEFAULTS.keepAliveTimeoutMs,
    // Node checks the header and request timeouts on this interval (30 s by default), which would let a stalled
    // connection outlive its timeout by that much.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
  };
}

/**
 * Counts the server's connections against the caps of `limits`. Returns the check to run first on every request:
 * the 503/429 reply for a connection accepted over a cap (it is closed after that reply), else undefined.
 * Over-cap connections are answered rather than reset, so a client learns when to retry.
 */
export function limitConnections(
  server: Server,
  limits: HttpServerLimits,
): (req: IncomingMessage) => HttpReply | undefined {
  const limiter = new ConnectionLimiter({
    maxConnections: limits.maxConnections ?? HTTP_LIMIT_DEFAULTS.maxConnections,
    maxConnectionsPerClient: limits.maxConnectionsPerClient ?? HTTP_LIMIT_DEFAULTS.maxConnectionsPerClient,
  });
  const refused = new WeakMap<Socket, ConnectionRefusal>();
  const headers = { 'retry-after': RETRY_AFTER_SECONDS, connection: 'close' };
  const replies: Record<ConnectionRefusal, HttpReply> = {
    total: errorReply(503, ErrorCode.InvalidRequest, 'Service unavailable: too many connections', undefined, headers),
    perClient: errorReply(429, ErrorCode.InvalidRequest, 'Too many connections from this client', undefined, headers),
  };
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const refusal = limiter.acquire(address);
    if (refusal !== undefined) refused.set(socket, refusal);
    else socket.once('close', () => limiter.release(address));
  });
  return (req) => {
    const refusal = refused.get(req.socket);
    return refusal === undefined ? undefined : replies[refusal];
  };
}
