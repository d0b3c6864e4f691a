import type { Readable, Writable } from 'node:stream';
import type { MessageHandler, PeerSession } from '@mcp-tasks/protocol';
import { INVALID_UTF8_ERROR, ServerSession } from '@mcp-tasks/transport-kit';
import { LineIntake } from './lineIntake.js';
import { LineSplitter } from './lineSplitter.js';

/** Default {@link StdioServerTransportOptions.maxLineBytes}: 16 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * Default {@link StdioServerTransportOptions.outputHighWaterMark}: 1 MiB, the same bound the WebSocket server keeps
 * per socket.
 */
export const DEFAULT_OUTPUT_HIGH_WATER_MARK = 1024 * 1024;

/** How long shutdown waits for aborted handlers to settle before giving up on them. */
const SHUTDOWN_TIMEOUT_MS = 5000;

/** Options for {@link StdioServerTransport}. */
export interface StdioServerTransportOptions {
  /** Input stream. @default process.stdin */
  readonly stdin?: Readable;
  /** Output stream; receives only JSON-RPC messages, one per line. @default process.stdout */
  readonly stdout?: Writable;
  /** Longest accepted inbound line in bytes; longer lines get a `-32600` error (no id) and are skipped. @default 16 MiB */
  readonly maxLineBytes?: number;
  /**
   * Bytes of output stdout may hold unwritten before the transport stops taking new work: above it, and once stdout
   * reports itself full, no further line is handed to the runtime and reading stdin pauses (lines already read
   * wait, in order) until stdout emits `'drain'`. Once 16 requests are running, further lines are taken one per
   * event-loop turn, so that a burst of requests read at once cannot all start before the answers of the first
   * ones count against this mark. A client that stops reading its end of the pipe thus holds the server at about
   * this mark plus the answers of the requests already running, instead of growing it. @default 1 MiB
   */
  readonly outputHighWaterMark?: number;
  /**
   * Requests the client may have running at once (listens included); one more is answered `-32600` with
   * `data.limit: 'maxInFlight'`. @default 256
   */
  readonly maxInFlight?: number;
  /** Open `subscriptions/listen` streams; one more is answered `-32600` (`data.limit: 'maxListens'`). @default 32 */
  readonly maxListens?: number;
  /** Deepest accepted nesting of objects and arrays in a message; deeper gets `-32602`. @default 64 */
  readonly maxDepth?: number;
  /**
   * Server-to-client requests (`session.request()`, `context.request()`) that may await the client's response at
   * once; one more rejects with `TransportError('send_failed')`. @default 64
   */
  readonly maxPeerRequests?: number;
  /**
   * Milliseconds a server-to-client request may await the client's response; then the client is sent
   * `notifications/cancelled` and the request rejects with `TransportError('timeout')`. 0 disables. @default 300000
   */
  readonly peerRequestTimeoutMs?: number;
  /** Principal for every request (stdio has no authentication of its own; the spawning user is trusted). */
  readonly principal?: string;
  /**
   * Non-fatal problems (a client response naming no pending request, a handler that threw). Never written to
   * stdout. @default write to stderr
   */
  readonly onError?: (error: Error) => void;
}

/**
 * Server side of the stdio transport: reads newline-delimited JSON-RPC from stdin, hands each message to the
 * runtime and writes responses and request-scoped notifications to stdout as they happen.
 *
 * The process is one 2025-era session: every message reaches the runtime with `context.session` (created when the
 * transport is constructed, `closed` aborting at EOF or {@link close}) and `context.request`; the client's responses
 * to those server-to-client requests arrive on stdin and are matched to them by id.
 *
 * Requests run concurrently and are answered as they finish. A malformed line (not JSON, or not valid UTF-8) gets
 * `-32700` (no id) and the server keeps reading. EOF on stdin (or {@link close}) aborts every in-flight request, then {@link closed}
 * resolves once their handlers have settled. Ownership: the transport never ends or destroys the streams it was
 * given; {@link serveStdio} is the variant that also exits the process.
 */
export class StdioServerTransport {
  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #session: ServerSession;
  readonly #splitter: LineSplitter;
  readonly #intake: LineIntake;
  #started = false;
  /** Lines written in this tick, flushed together on the next one: one write syscall for many responses. */
  #pending = '';
  #closing: Promise<void> | undefined;
  #resolveClosed: () => void = () => {};
  /** Resolves after the input ended (or {@link close} was called) and every running handler settled. */
  readonly closed: Promise<void>;

  /** Wraps `handler`; nothing is read from stdin until {@link start}. */
  constructor(handler: MessageHandler, options: StdioServerTransportOptions = {}) {
    this.#stdin = options.stdin ?? process.stdin;
    this.#stdout = options.stdout ?? process.stdout;
    const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    const onError = options.onError ?? ((error: Error) => process.stderr.write(`mcp stdio server: ${error.message}\n`));
    this.closed = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
    this.#session = new ServerSession({
      handler,
      principal: options.principal,
      onError,
      maxInFlight: options.maxInFlight,
      maxListens: options.maxListens,
      maxDepth: options.maxDepth,
      maxPeerRequests: options.maxPeerRequests,
      peerRequestTimeoutMs: options.peerRequestTimeoutMs,
      write: (text) => this.#writeLine(text),
    });
    this.#intake = new LineIntake({
      stdin: this.#stdin,
      stdout: this.#stdout,
      highWaterMark: options.outputHighWaterMark ?? DEFAULT_OUTPUT_HIGH_WATER_MARK,
      queuedOutput: () => this.#pending.length,
      inFlight: () => this.#session.inFlight,
      take: (line) => this.#session.receiveText(line),
    });
    this.#splitter = new LineSplitter({
      maxLineBytes,
      onLine: (line) => this.#intake.push(line),
      onInvalidUtf8: () => this.#writeLine(JSON.stringify(INVALID_UTF8_ERROR)),
      onOverflow: () =>
        this.#writeLine(
          JSON.stringify({
            jsonrpc: '2.0',
            error: {
              code: -32600,
              message: `Invalid Request: message exceeds ${maxLineBytes} bytes`,
              data: { maxLineBytes },
            },
          }),
        ),
    });
  }

  /** This connection's 2025-era session, the `context.session` of every message (e.g. to notify outside a request). */
  get session(): PeerSession {
    return this.#session.peer;
  }

  /** Starts reading stdin. Call once; later calls do nothing. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#stdin.on('data', this.#onData);
    this.#stdin.once('end', this.#onEnd);
    this.#stdin.once('error', this.#onEnd);
    this.#stdout.on('error', this.#onOutputError);
  }

  /**
   * Stops reading, aborts every in-flight request (their output is dropped) and resolves once their handlers
   * settled. Idempotent; does not end or destroy the streams.
   */
  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  /**
   * Queues one line for stdout. Lines keep their order and leave together on the next tick (`process.nextTick`,
   * so after the promise reactions that produced them and before any I/O): responses finishing together cost one
   * write syscall instead of one each.
   */
  #writeLine(text: string): void {
    if (this.#pending === '') process.nextTick(this.#flush);
    this.#pending += `${text}\n`;
  }

  readonly #flush = (): void => {
    const text = this.#pending;
    if (text === '') return;
    this.#pending = '';
    this.#stdout.write(text);
    if (this.#closing === undefined) this.#intake.afterWrite();
  };

  readonly #onData = (chunk: Buffer | string): void => {
    this.#splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  };

  readonly #onEnd = (): void => {
    this.#splitter.end();
    void this.close();
  };

  /** stdout failing (EPIPE: the client is gone) means nobody can read answers any more. */
  readonly #onOutputError = (): void => {
    void this.close();
  };

  async #shutdown(): Promise<void> {
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('end', this.#onEnd);
    this.#stdin.off('error', this.#onEnd);
    this.#stdin.pause();
    this.#intake.stop();
    this.#session.close();
    await this.#session.idle(SHUTDOWN_TIMEOUT_MS);
    // Whatever was answered before the close still goes out before `closed` resolves (and serveStdio exits).
    this.#flush();
    this.#stdout.off('error', this.#onOutputError);
    this.#resolveClosed();
  }
}

/**
 * Runs a stdio MCP server on this process's stdin/stdout and exits the process (code 0) once stdin reaches EOF and
 * running requests have been aborted. Log to stderr only: anything else on stdout corrupts the channel.
 */
export function serveStdio(
  handler: MessageHandler,
  options: Omit<StdioServerTransportOptions, 'stdin' | 'stdout'> = {},
): StdioServerTransport {
  const transport = new StdioServerTransport(handler, options);
  transport.start();
  void transport.closed.then(() => {
    // Exit only after stdout flushed, so the last responses are not lost.
    process.stdout.write('', () => process.exit(0));
  });
  return transport;
}
