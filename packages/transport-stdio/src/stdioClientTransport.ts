import { type ChildProcess, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import type {
  ClientPeerHandler,
  ClientRequestOptions,
  ClientTransport,
  TransportNotification,
  TransportRequest,
  TransportResponse,
} from '@mcp-tasks/protocol';
import { TransportError } from '@mcp-tasks/protocol';
import { ClientPeerDispatch, CloseSignal, PendingRequests } from '@mcp-tasks/transport-kit';
import { LineSplitter } from './lineSplitter.js';
import { DEFAULT_MAX_LINE_BYTES } from './stdioServerTransport.js';

/** Options for {@link StdioClientTransport.spawn}. */
export interface StdioClientTransportOptions {
  /** Executable to run (resolved on PATH). */
  readonly command: string;
  /** Arguments, passed as argv without a shell. */
  readonly args?: readonly string[];
  /** Child environment; replaces (does not extend) the parent's. @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Working directory of the child. @default process.cwd() */
  readonly cwd?: string;
  /** `inherit` passes the child's stderr through; `pipe` exposes it as {@link StdioClientTransport.stderr}. @default 'inherit' */
  readonly stderr?: 'inherit' | 'pipe' | 'ignore';
  /**
   * Start the child in its own process group, so a Ctrl-C in the terminal reaches only this process, which can then
   * cancel its tasks over the still-running server before closing it. The child still exits on stdin EOF when this
   * process dies. POSIX only (ignored on Windows). @default false
   */
  readonly ownProcessGroup?: boolean;
  /** Wait after closing stdin before SIGTERM, and again before SIGKILL. @default 2000 */
  readonly closeGraceMs?: number;
  /** Longest accepted line from the server; longer lines are discarded and reported via `onError`. @default 16 MiB */
  readonly maxLineBytes?: number;
  /**
   * Notifications naming no in-flight request (e.g. `notifications/message`, which carries no request id). They
   * also reach the peer handler's `onNotification` (see {@link StdioClientTransport.setPeerHandler}).
   */
  readonly onUnroutedNotification?: (notification: TransportNotification) => void;
  /**
   * Requests from the server (2025-era sessions) the peer handler may be running at once; one more is answered
   * `-32600` with `data.limit: 'maxServerRequests'`. @default 64
   */
  readonly maxServerRequests?: number;
  /**
   * Non-fatal problems: malformed or over-long lines on the server's stdout (`malformed_frame`); a peer handler that failed (its server request is answered
   * `-32603`) or a response to a server request that could not be written (`send_failed`).
   */
  readonly onError?: (error: TransportError) => void;
}

/** How the child ended. */
export interface ChildExit {
  /** The exit code, or `null` when the child was ended by a signal. */
  readonly code: number | null;
  /** The signal that ended the child, or `null` when it exited by itself. */
  readonly signal: NodeJS.Signals | null;
}

/**
 * Client side of the stdio transport: spawns the server and speaks newline-delimited JSON-RPC over its
 * stdin/stdout. Implements {@link ClientTransport}; routing of notifications is described on `PendingRequests`;
 * what the server sends outside the client's requests goes to the handler given to {@link setPeerHandler}.
 *
 * If the child exits, every in-flight and later request rejects with `TransportError('closed')`. {@link close}
 * closes the child's stdin, then sends SIGTERM and finally SIGKILL, each after `closeGraceMs`.
 */
export class StdioClientTransport implements ClientTransport {
  readonly #child: ChildProcess;
  readonly #pending: PendingRequests;
  readonly #peer: ClientPeerDispatch;
  readonly #graceMs: number;
  #closing: Promise<void> | undefined;
  readonly #close = new CloseSignal();
  /**
   * Resolves once the transport is closed for good: `initiator: 'local'` when {@link close} was called first,
   * `'remote'` (with the exit code or signal in `error`) when the server process exited on its own.
   */
  readonly closed = this.#close.closed;
  /** Resolves when the child has exited and its stdout has been drained. */
  readonly exited: Promise<ChildExit>;
  /** The child's stderr when spawned with `stderr: 'pipe'`, else null. Read it, or it may fill and block the child. */
  readonly stderr: Readable | null;

  private constructor(child: ChildProcess, options: StdioClientTransportOptions) {
    this.#child = child;
    this.#graceMs = options.closeGraceMs ?? 2000;
    this.stderr = child.stderr;
    const stdin = child.stdin;
    const report = options.onError ?? (() => {});
    this.#peer = new ClientPeerDispatch({
      send: (response) => this.#write(response),
      maxConcurrent: options.maxServerRequests,
      onUnroutedNotification: options.onUnroutedNotification,
      onError: (cause) => report(new TransportError('send_failed', cause.message, { cause })),
    });
    this.#pending = new PendingRequests({
      onUnroutedNotification: this.#peer.receiveNotification,
      onRequest: this.#peer.receiveRequest,
      send: (message) =>
        new Promise<void>((resolve, reject) => {
          if (stdin === null || !stdin.writable) {
            reject(new TransportError('closed', 'The server process stdin is closed'));
            return;
          }
          stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
        }),
    });
    const splitter = new LineSplitter({
      maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      onOverflow: () => report(new TransportError('malformed_frame', 'Discarded an over-long line from the server')),
      onLine: (line) => this.#receiveLine(line, report),
    });
    child.stdout?.on('data', (chunk: Buffer) => splitter.push(chunk));
    child.stdout?.on('end', () => splitter.end());
    // EPIPE after the child died, or a failed kill(), surfaces through 'close' below; keep it from crashing us.
    stdin?.on('error', () => {});
    child.stdout?.on('error', () => {});
    child.on('error', () => {});
    this.exited = new Promise((resolve) => {
      child.once('close', (code, signal) => {
        const error = new TransportError(
          'closed',
          `The server process exited (code ${code ?? 'none'}, signal ${signal ?? 'none'})`,
        );
        this.#pending.failAll(error);
        this.#peer.abortAll(error);
        this.#close.settle({ initiator: 'remote', error });
        resolve({ code, signal });
      });
    });
  }

  /** Parses one line from the server's stdout and routes it; what is not a JSON-RPC message goes to `report`. */
  #receiveLine(line: string, report: (error: TransportError) => void): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (cause) {
      report(new TransportError('malformed_frame', 'Server wrote a line that is not JSON', { cause }));
      return;
    }
    if (!this.#pending.receive(message)) {
      report(
        new TransportError(
          'malformed_frame',
          'Server wrote a message that is not a JSON-RPC request, response or notification',
        ),
      );
    }
  }

  /**
   * Spawns the server and resolves once the process started. Rejects with `TransportError('closed')` when it
   * cannot be spawned (e.g. command not found).
   */
  static spawn(options: StdioClientTransportOptions): Promise<StdioClientTransport> {
    const child = spawn(options.command, [...(options.args ?? [])], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', options.stderr ?? 'inherit'],
      windowsHide: true,
      detached: options.ownProcessGroup === true && process.platform !== 'win32',
    });
    return new Promise((resolve, reject) => {
      child.once('error', (cause) =>
        reject(new TransportError('closed', `Could not start ${options.command}: ${cause.message}`, { cause })),
      );
      child.once('spawn', () => resolve(new StdioClientTransport(child, options)));
    });
  }

  /** The child's process id. */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  request(message: TransportRequest, options?: ClientRequestOptions): Promise<TransportResponse> {
    return this.#pending.request(message, options);
  }

  /**
   * Installs the receiver of what the server sends outside the client's requests (2025-era sessions): its requests
   * (`roots/list`, `sampling/createMessage`, `elicitation/create`, `ping`; answered `-32601` until a handler is
   * installed) and the notifications that belong to none of the client's requests. Replaces any earlier handler.
   */
  setPeerHandler(handler: ClientPeerHandler): void {
    this.#peer.setHandler(handler);
  }

  notify(message: TransportNotification): Promise<void> {
    return this.#write(message);
  }

  async #write(message: TransportNotification | TransportResponse): Promise<void> {
    if (this.#closing !== undefined) throw new TransportError('closed', 'The transport is closed');
    const stdin = this.#child.stdin;
    if (stdin === null || !stdin.writable) throw new TransportError('closed', 'The server process stdin is closed');
    await new Promise<void>((resolve, reject) =>
      stdin.write(`${JSON.stringify(message)}\n`, (error) =>
        error ? reject(new TransportError('send_failed', 'Write to the server failed', { cause: error })) : resolve(),
      ),
    );
  }

  close(): Promise<void> {
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  async #shutdown(): Promise<void> {
    this.#close.settle({ initiator: 'local' });
    const closed = new TransportError('closed', 'The transport was closed');
    this.#pending.failAll(closed);
    this.#peer.abortAll(closed);
    this.#child.stdin?.end();
    if (await this.#exitsWithin(this.#graceMs)) return;
    this.#child.kill('SIGTERM');
    if (await this.#exitsWithin(this.#graceMs)) return;
    this.#child.kill('SIGKILL');
    await this.exited;
  }

  async #exitsWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    try {
      return await Promise.race([this.exited.then(() => true), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
