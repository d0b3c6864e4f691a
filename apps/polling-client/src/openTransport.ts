/** Opens the `ClientTransport` for a server target: Streamable HTTP, WebSocket, or a spawned stdio server. */
import { type ClientTransport, TransportError } from '@mcp-tasks/protocol';
import { HttpClientTransport } from '@mcp-tasks/transport-http/client';
import { StdioClientTransport } from '@mcp-tasks/transport-stdio';
import {
  connectWebSocket,
  type WebSocketReconnectAttempt,
  type WebSocketReconnectOptions,
} from '@mcp-tasks/transport-ws';
import type { ServerTarget } from './cliArgs.js';
import { ConnectionError, UsageError } from './cliErrors.js';

/** A transport plus what the server said on the side (a stdio server's last stderr line), for error messages. */
export interface OpenedTransport extends ClientTransport {
  serverSaid?(): string | undefined;
}

/** Options of {@link openTransport}. */
export interface OpenTransportOptions {
  readonly token?: string | undefined;
  /** Pass the stdio server's stderr through (otherwise only its last lines are kept, for error messages). */
  readonly verbose?: boolean | undefined;
  /** Where diagnostics go. @default stderr */
  readonly warn?: ((message: string) => void) | undefined;
  /** The fetch under the HTTP transport (an OAuth wrapper from `@mcp-tasks/oauth-client`). */
  readonly fetch?: ((input: string, init: RequestInit) => Promise<Response>) | undefined;
  /**
   * `--retry-for`: how long a WebSocket keeps reconnecting after the server went away (0: not at all). Undefined:
   * the transport's default (a few attempts), for commands that follow no task.
   */
  readonly retryForMs?: number | undefined;
  /** Told before each WebSocket reconnect attempt under `retryForMs`. */
  readonly onReconnecting?: ((attempt: WebSocketReconnectAttempt) => void) | undefined;
}

/**
 * Connects to `target`. HTTP needs no connection up front (each request is a POST); WebSocket and stdio connect
 * here, and a failure to do so rejects with a `ConnectionError` naming the target.
 */
export async function openTransport(
  target: ServerTarget,
  options: OpenTransportOptions = {},
): Promise<OpenedTransport> {
  const warn = options.warn ?? ((message: string) => process.stderr.write(`${message}\n`));
  if (target.kind === 'stdio') {
    // A stdio server trusts the process that spawns it; there is nowhere standard to put a token.
    if (options.token !== undefined) throw new UsageError('--token applies to --url servers, not to --stdio');
    return spawnStdio(target.command, options, warn);
  }
  const url = new URL(target.url);
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    return new HttpClientTransport({
      url,
      token: options.token,
      fetch: options.fetch,
      warn: options.verbose ? warn : () => undefined,
    });
  }
  try {
    return await connectWebSocket(url, {
      ...(options.token === undefined ? {} : { token: options.token }),
      ...(options.retryForMs === undefined
        ? {}
        : { reconnect: reconnectFor(options.retryForMs, options.onReconnecting) }),
    });
  } catch (error) {
    // A refused upgrade (401, 426…) keeps its HTTP status, so the CLI can say what to do about it.
    if (error instanceof TransportError && error.code === 'http_status') throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new ConnectionError(`Cannot open a WebSocket to ${target.url}: ${detail} (is the server running?)`);
  }
}

/**
 * The socket's reconnecting follows `--retry-for`: for that long, however many attempts it takes (the transport's
 * own default of five attempts would stop after about 7 s, or go on 7 s past a shorter `--retry-for`).
 */
function reconnectFor(
  retryForMs: number,
  onReconnecting: OpenTransportOptions['onReconnecting'],
): WebSocketReconnectOptions | false {
  if (retryForMs <= 0) return false;
  return {
    maxAttempts: Number.POSITIVE_INFINITY,
    giveUpAfterMs: retryForMs,
    ...(onReconnecting === undefined ? {} : { onReconnecting }),
  };
}

async function spawnStdio(
  commandLine: string,
  options: OpenTransportOptions,
  warn: (message: string) => void,
): Promise<OpenedTransport> {
  const [command, ...args] = splitCommandLine(commandLine);
  if (command === undefined) throw new UsageError('--stdio needs a command line');
  let transport: StdioClientTransport;
  try {
    // Its own process group: a Ctrl-C in the terminal reaches only us, so the server is still up for tasks/cancel.
    transport = await StdioClientTransport.spawn({
      command,
      args,
      stderr: 'pipe',
      closeGraceMs: 1000,
      ownProcessGroup: true,
    });
  } catch (error) {
    throw new ConnectionError(`Cannot start the stdio server: ${error instanceof Error ? error.message : error}`);
  }
  // The child runs in its own process group, so nothing reaps it if we leave abruptly: kill it on any exit.
  const reap = () => killGroup(transport.pid);
  process.once('exit', reap);
  void transport.exited.then(() => process.off('exit', reap));
  // The server's stderr is its log: shown with --verbose, otherwise its tail is kept to explain a crash.
  let tail: string[] = [];
  transport.stderr?.setEncoding('utf8');
  transport.stderr?.on('data', (chunk: string) => {
    if (options.verbose) warn(chunk.trimEnd());
    tail = [...tail, ...chunk.split('\n').filter((line) => line.trim() !== '')].slice(-20);
  });
  const explain = (error: unknown): never => {
    const said = [...tail].reverse().find((line) => /error/i.test(line)) ?? tail.at(-1);
    if (error instanceof TransportError && error.code === 'closed' && said !== undefined)
      throw new TransportError('closed', `${error.message}; it said: ${said.trim()}`, { cause: error.cause });
    throw error;
  };
  return {
    request: (message, requestOptions) => transport.request(message, requestOptions).catch(explain),
    notify: (message) => transport.notify(message).catch(explain),
    close: () => transport.close(),
    closed: transport.closed,
    // A 2025-era server's own requests (elicitation, sampling, roots, ping) must reach the client's handler.
    setPeerHandler: (handler) => transport.setPeerHandler(handler),
    serverSaid: () => tail.at(-1)?.trim(),
  };
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Splits a command line into argv the way a POSIX shell would for the simple cases: whitespace separates words,
 * single quotes keep everything literal, double quotes keep spaces, backslash escapes one character.
 */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const char = line.charAt(i);
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (char === '\\' && i + 1 < line.length) {
      word += line.charAt(++i);
      inWord = true;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote !== undefined) throw new UsageError(`Unterminated ${quote} quote in --stdio command line`);
  if (inWord) words.push(word);
  return words;
}
