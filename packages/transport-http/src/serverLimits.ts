import type { IncomingMessage, Server, ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode } from '@mcp-tasks/protocol';
import { ConnectionLimiter, type ConnectionRefusal } from '@mcp-tasks/transport-kit';
import { fdReserve } from './fdLimit.js';
import { errorReply, type HttpReply } from './httpReply.js';

/** Connection limits of the node:http server {@link listen} starts. Every field is optional. */
export interface HttpServerLimits {
  /**
   * Connections open at once; one more is answered 503 with `Retry-After` as soon as it is accepted, and closed.
   * Never more than the process's file-descriptor limit allows: it is lowered to that limit minus a reserve for
   * the server's other descriptors (an eighth, at least 64), read at start (Linux); see
   * {@link HttpServerHandle.limits}. Default 1024.
   */
  readonly maxConnections?: number;
  /**
   * Connections open at once from one client address; one more is answered 429 with `Retry-After` as soon as it is
   * accepted, and closed, before a descriptor is spent waiting for its headers. HTTP/1.1 clients open one
   * connection per concurrent request, so this is the per-client concurrency bound. Default 256.
   */
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

/** The connection caps a server enforces, as derived at start from its options and the process's fd limit. */
export interface ConnectionCaps {
  /** Connections open at once, after lowering to the fd limit's headroom. */
  readonly maxConnections: number;
  /** Connections open at once from one client address. */
  readonly maxConnectionsPerClient: number;
  /** The process's soft file-descriptor limit when it could be read (Linux), else undefined. */
  readonly fdLimit: number | undefined;
}

/** The caps of `limits`, the total lowered below `fdLimit` (less {@link fdReserve}) when that is known. */
export function connectionCaps(limits: HttpServerLimits, fdLimit: number | undefined): ConnectionCaps {
  const asked = limits.maxConnections ?? HTTP_LIMIT_DEFAULTS.maxConnections;
  const headroom = fdLimit === undefined ? asked : Math.max(1, fdLimit - fdReserve(fdLimit));
  return {
    maxConnections: Math.min(asked, headroom),
    maxConnectionsPerClient: limits.maxConnectionsPerClient ?? HTTP_LIMIT_DEFAULTS.maxConnectionsPerClient,
    fdLimit,
  };
}

/** How long a refused connection may take to read its refusal before it is destroyed. */
const REFUSAL_LINGER_MS = 1_000;

/**
 * Counts the server's connections against `caps`. A connection over a cap is refused the moment it is accepted:
 * it is sent a complete 503/429 response with `Retry-After` (so a client learns when to retry, rather than seeing
 * a reset) and closed, without waiting for its request: one client opening idle connections by the thousand
 * cannot hold descriptors for a header timeout each. Returns whether a request arrived on a refused connection
 * anyway (sent before the close reached the client); such a request is dropped with its connection.
 */
export function limitConnections(server: Server, caps: ConnectionCaps): (req: IncomingMessage) => boolean {
  const limiter = new ConnectionLimiter(caps);
  const headers = { 'retry-after': RETRY_AFTER_SECONDS, connection: 'close' };
  const refusals: Record<ConnectionRefusal, Buffer> = {
    total: rawReply(
      errorReply(503, ErrorCode.InvalidRequest, 'Service unavailable: too many connections', undefined, headers),
      'Service Unavailable',
    ),
    perClient: rawReply(
      errorReply(429, ErrorCode.InvalidRequest, 'Too many connections from this client', undefined, headers),
      'Too Many Requests',
    ),
  };
  const refused = new WeakSet<Socket>();
  // Ahead of node:http's own listener, which would start waiting for the request's headers.
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const refusal = limiter.acquire(address);
    if (refusal === undefined) {
      socket.once('close', () => limiter.release(address));
      return;
    }
    refused.add(socket);
    const linger = setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS);
    linger.unref();
    socket.once('close', () => clearTimeout(linger));
    socket.end(refusals[refusal], () => socket.destroy());
  });
  return (req) => refused.has(req.socket);
}

/** An {@link HttpReply} as the bytes of a complete HTTP/1.1 response. */
function rawReply(reply: HttpReply, reason: string): Buffer {
  const body = reply.body ?? '';
  const head = Object.entries(reply.headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return Buffer.from(
    `HTTP/1.1 ${reply.status} ${reason}\r\n${head.join('')}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
