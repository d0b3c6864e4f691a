import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { MessageHandler, ServerEndpoint } from '@mcp-tasks/protocol';
import {
  ConnectionLimiter,
  createOriginCheck,
  hasDuplicateHeader,
  type OriginCheckInput,
  ServerSession,
} from '@mcp-tasks/transport-kit';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';

import { answerPlainRequests, pathnameOf } from './plainRequests.js';
import { endpointParts, guardScopes } from './scopeGuard.js';
import { MCP_SUBPROTOCOL } from './subprotocol.js';
import { type AcceptedUpgrade, authenticateUpgrade } from './upgradeAuthentication.js';
import {
  frameBytes,
  type OutputLimits,
  refuseUpgrade,
  sendFrame,
  type WebSocketConnection,
} from './webSocketConnection.js';

export type { WebSocketAuthenticate } from './upgradeAuthentication.js';
export type { WebSocketListenOptions, WebSocketServerOptions } from './webSocketServerOptions.js';

import {
  RETRY_AFTER_SECONDS,
  WEBSOCKET_LIMIT_DEFAULTS,
  type WebSocketListenOptions,
  type WebSocketServerOptions,
} from './webSocketServerOptions.js';

/**
 * Server side of this project's WebSocket binding: one JSON-RPC message per text frame on subprotocol `mcp`.
 *
 * Each socket gets its own session: requests run concurrently, `notifications/cancelled` aborts one, and closing
 * the socket aborts that socket's in-flight requests and listen streams (never its tasks). The socket is also the
 * 2025-era session: every message reaches the runtime with `context.session` (one per socket, `closed` aborting
 * when it closes) and `context.request`; the client's responses to those server-to-client requests are matched to
 * them by id. Authentication and
 * Origin checks run at the upgrade, before any frame is read: the socket's principal (and its token's scopes)
 * holds for every message on it, and a `tools/call` whose scopes fall short of the tool's required ones (given an
 * `McpServer` or another {@link ServerEndpoint} declaring them) is refused before the runtime sees it. Limits (see {@link WebSocketServerOptions}): total
 * and per-client sockets (503/429 with `Retry-After` at the upgrade), an idle timeout, requests in flight and
 * listen streams per socket, nesting depth and frame size. A text frame that is not valid UTF-8 closes the socket
 * with 1007 (RFC 6455, section 8.1); one that is not JSON is answered `-32700` and the socket stays open.
 */
export class WebSocketServerTransport {
  readonly #server: Server;
  readonly #ownsServer: boolean;
  readonly #handler: MessageHandler;
  readonly #requiredScopes: ReturnType<typeof endpointParts>['requiredScopes'];
  readonly #options: WebSocketServerOptions;
  readonly #originAllowed: (input: OriginCheckInput) => boolean;
  readonly #path: string;
  readonly #wss: WebSocketServer;
  readonly #connections = new Map<WebSocket, WebSocketConnection>();
  readonly #heartbeat: NodeJS.Timeout | undefined;
  readonly #idleSweep: NodeJS.Timeout | undefined;
  readonly #idleTimeoutMs: number;
  /** Sockets counted against the caps, from the upgrade's acceptance until the TCP socket closes. */
  readonly #limiter: ConnectionLimiter;
  readonly #outputLimits: OutputLimits;
  #closing: Promise<void> | undefined;

  private constructor(
    server: Server,
    ownsServer: boolean,
    endpoint: ServerEndpoint | MessageHandler,
    options: WebSocketServerOptions,
  ) {
    this.#server = server;
    this.#ownsServer = ownsServer;
    ({ handler: this.#handler, requiredScopes: this.#requiredScopes } = endpointParts(endpoint));
    this.#options = options;
    this.#originAllowed = createOriginCheck(options.originPolicy);
    this.#path = options.path ?? '/mcp';
    this.#wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxPayload ?? 16 * 1024 * 1024,
      // RFC 6455, section 8.1: a text frame that is not valid UTF-8 fails the connection with 1007. ws validates
      // every text frame (and close reason) and does exactly that, unless told to skip it.
      skipUTF8Validation: false,
      handleProtocols: (protocols) => (protocols.has(MCP_SUBPROTOCOL) ? MCP_SUBPROTOCOL : false),
    });
    server.on('upgrade', this.#onUpgrade);
    const heartbeatMs = options.heartbeatMs ?? 30_000;
    if (heartbeatMs > 0) {
      this.#heartbeat = setInterval(() => this.#beat(), heartbeatMs);
      this.#heartbeat.unref();
    }
    this.#limiter = new ConnectionLimiter({
      maxConnections: options.maxConnections ?? WEBSOCKET_LIMIT_DEFAULTS.maxConnections,
      maxConnectionsPerClient: options.maxConnectionsPerClient ?? WEBSOCKET_LIMIT_DEFAULTS.maxConnectionsPerClient,
    });
    this.#outputLimits = {
      highWaterMark: options.highWaterMark ?? 1024 * 1024,
      maxBufferedBytes: options.maxBufferedBytes ?? 16 * 1024 * 1024,
      onError: options.onError,
    };
    this.#idleTimeoutMs = options.idleTimeoutMs ?? WEBSOCKET_LIMIT_DEFAULTS.idleTimeoutMs;
    if (this.#idleTimeoutMs > 0) {
      this.#idleSweep = setInterval(() => this.#closeIdle(), Math.max(10, Math.floor(this.#idleTimeoutMs / 4)));
      this.#idleSweep.unref();
    }
  }

  /**
   * Serves the binding on an existing HTTP server (e.g. sharing a port with Streamable HTTP). `close()` leaves it
   * running. Pass the runtime itself (an `McpServer` is a {@link ServerEndpoint}) for tools' required scopes.
   */
  static attach(
    server: Server,
    endpoint: ServerEndpoint | MessageHandler,
    options: WebSocketServerOptions = {},
  ): WebSocketServerTransport {
    return new WebSocketServerTransport(server, false, endpoint, options);
  }

  /**
   * Starts an HTTP server of its own (127.0.0.1, ephemeral port by default) that serves the binding and, to plain
   * `GET`s, the configured `documents` (426 for any other plain request).
   */
  static async listen(
    endpoint: ServerEndpoint | MessageHandler,
    options: WebSocketListenOptions = {},
  ): Promise<WebSocketServerTransport> {
    const limits = { headersTimeout: 10_000, requestTimeout: 30_000 };
    const server = createServer(limits, answerPlainRequests(options.documents));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    return new WebSocketServerTransport(server, true, endpoint, options);
  }

  /** `ws://host:port/path` of the endpoint (for a listening server). */
  get url(): string {
    const address = this.#server.address() as AddressInfo | null;
    if (address === null) throw new Error('The HTTP server is not listening');
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `ws://${host}:${address.port}${this.#path}`;
  }

  /** Number of open sockets. */
  get connectionCount(): number {
    return this.#connections.size;
  }

  /**
   * Stops accepting upgrades, closes every socket with 1001 (aborting its in-flight requests) and waits for their
   * handlers to settle; closes the HTTP server only if {@link listen} created it. Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  readonly #onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (pathnameOf(request.url) !== this.#path) {
      // Another upgrade listener on a shared server may own this path.
      if (this.#ownsServer || this.#server.listenerCount('upgrade') === 1) refuseUpgrade(socket, 404, 'Not Found');
      return;
    }
    socket.on('error', (error) => this.#options.onError?.(error));
    void this.#accept(request, socket, head);
  };

  async #accept(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    if (this.#closing !== undefined) return refuseUpgrade(socket, 503, 'Service Unavailable');
    if (hasDuplicateHeader(request.rawHeaders, 'host'))
      return refuseUpgrade(socket, 400, 'Bad Request: more than one Host');
    if (!this.#reserve(request.socket.remoteAddress ?? '', socket)) return;
    const { host, origin } = request.headers;
    if (!this.#originAllowed({ host, origin, localAddress: request.socket.localAddress })) {
      return refuseUpgrade(socket, 403, 'Forbidden');
    }
    const offered = (request.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    if (!offered.includes(MCP_SUBPROTOCOL))
      return refuseUpgrade(socket, 400, 'Bad Request: subprotocol "mcp" required');
    const { authenticate, wwwAuthenticate = 'Bearer' } = this.#options;
    const identity = await authenticateUpgrade(authenticate, request, offered, wwwAuthenticate);
    if ('refused' in identity)
      return refuseUpgrade(socket, 401, 'Unauthorized', { 'WWW-Authenticate': identity.refused });
    if (socket.destroyed || this.#closing !== undefined) {
      socket.destroy();
      return;
    }
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#connect(ws, socket, identity));
  }

  /** Counts the socket against the caps until it closes; refuses it and returns false when a cap is reached. */
  #reserve(address: string, socket: Duplex): boolean {
    const refusal = this.#limiter.acquire(address);
    const retry = { 'Retry-After': RETRY_AFTER_SECONDS };
    if (refusal === 'total') refuseUpgrade(socket, 503, 'Service Unavailable: too many connections', retry);
    else if (refusal === 'perClient') refuseUpgrade(socket, 429, 'Too Many Requests: too many connections', retry);
    else {
      socket.once('close', () => this.#limiter.release(address));
      return true;
    }
    return false;
  }

  #connect(ws: WebSocket, socket: Duplex, { principal, scopes }: AcceptedUpgrade): void {
    const connection: WebSocketConnection = {
      socket,
      alive: true,
      lastActive: Date.now(),
      paused: false,
      corked: false,
      session: new ServerSession({
        handler: guardScopes(this.#handler, scopes, this.#requiredScopes, this.#options.insufficientScopeChallenge),
        principal,
        onError: this.#options.onError,
        maxInFlight: this.#options.maxInFlight,
        maxListens: this.#options.maxListens,
        maxDepth: this.#options.maxDepth,
        maxPeerRequests: this.#options.maxPeerRequests,
        peerRequestTimeoutMs: this.#options.peerRequestTimeoutMs,
        write: (text) => sendFrame(ws, connection, text, this.#outputLimits),
      }),
    };
    this.#connections.set(ws, connection);
    ws.on('pong', () => {
      connection.alive = true;
    });
    ws.on('message', (data: RawData, isBinary: boolean) => {
      connection.lastActive = Date.now();
      if (isBinary) ws.close(1003, 'Binary frames are not supported');
      else connection.session.receiveBytes(frameBytes(data));
    });
    // An over-size frame makes ws close with 1009 and emit this error; the close handler below cleans up.
    ws.on('error', (error) => this.#options.onError?.(error));
    ws.on('close', () => {
      this.#connections.delete(ws);
      connection.session.close();
    });
  }

  #beat(): void {
    for (const [ws, connection] of this.#connections) {
      if (!connection.alive) {
        ws.terminate();
        continue;
      }
      connection.alive = false;
      ws.ping();
    }
  }

  /** Closes sockets with nothing in flight and no traffic for the idle timeout; pongs do not count as traffic. */
  #closeIdle(): void {
    const cutoff = Date.now() - this.#idleTimeoutMs;
    for (const [ws, connection] of this.#connections) {
      const busy = connection.session.inFlight > 0 || connection.session.peer.pendingRequests > 0;
      if (!busy && connection.lastActive <= cutoff) ws.close(1000, 'Idle timeout');
    }
  }

  async #shutdown(): Promise<void> {
    clearInterval(this.#heartbeat);
    clearInterval(this.#idleSweep);
    this.#server.off('upgrade', this.#onUpgrade);
    const sessions = [...this.#connections.values()].map((c) => c.session);
    const closed = [...this.#connections.keys()].map(
      (ws) =>
        new Promise<void>((resolve) => {
          // A peer that does not answer the close handshake promptly is cut off.
          const timer = setTimeout(() => ws.terminate(), 1000);
          ws.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
          ws.close(1001, 'Server shutting down');
        }),
    );
    for (const session of sessions) session.close();
    await Promise.all([...closed, ...sessions.map((s) => s.idle(5000))]);
    this.#wss.close();
    if (this.#ownsServer) {
      await new Promise<void>((resolve) => {
        this.#server.close(() => resolve());
        this.#server.closeAllConnections();
      });
    }
  }
}
