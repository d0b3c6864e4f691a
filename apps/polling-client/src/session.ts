/**
 * One CLI run's connection: the transport, the `McpClient` with this CLI's input handlers and file journal, and
 * the status reporter the handlers talk through.
 */
import { readFileSync } from 'node:fs';
import { type InputHandlers, McpClient, type ServerConnection } from '@mcp-tasks/client';
import type { Implementation } from '@mcp-tasks/protocol';
import { isProtocolError, TransportError } from '@mcp-tasks/protocol';
import { answerFromFile, loadAnswers } from './answersFile.js';
import { storedLoginFetch } from './authCommands.js';
import { builtinSample } from './builtinSampler.js';
import type { CommonOptions, RunOptions, ServerTarget } from './cliArgs.js';
import { ConnectionError, UsageError } from './cliErrors.js';
import { defaultJournalPath, FileTaskJournal } from './fileTaskJournal.js';
import { type OpenedTransport, openTransport } from './openTransport.js';
import { retryingLine } from './retryFollow.js';
import { StatusReporter } from './statusReporter.js';
import { TerminalForm } from './terminalForm.js';

/** This CLI's version (from its package.json). */
export const CLIENT_VERSION = packageVersion();

/** The `clientInfo` every request carries. */
export const CLIENT_INFO: Implementation = { name: 'mcp-tasks-polling-client', version: CLIENT_VERSION };

/** Everything a command needs to talk to the server. `close` releases the transport (and a stdio child). */
export interface Session {
  readonly client: McpClient;
  readonly journal: FileTaskJournal;
  readonly reporter: StatusReporter;
  readonly server: ServerTarget;
  /** Aborts the running call (Ctrl-C, or a form nobody can answer); its reason is what the call rejects with. */
  readonly controller: AbortController;
  /**
   * Whether the connection is closed for good (a WebSocket that stopped reconnecting, a stdio server that exited):
   * a retry through it cannot reach the server. Never true for HTTP, whose requests each connect afresh.
   */
  transportClosed(): boolean;
  /** Whether the transport lost the server and reconnected on its own (a WebSocket under `--retry-for`). */
  reconnected(): boolean;
  close(): Promise<void>;
}

/** The journal named by `--journal`, or the default one. */
export function openJournal(options: CommonOptions, server?: ServerTarget): FileTaskJournal {
  return new FileTaskJournal(options.journal ?? defaultJournalPath(), server);
}

/**
 * Connects to `server` and builds the client. Elicitation is answered from `--answers` when given, otherwise
 * interactively; sampling by the built-in responder (or the answers file's `"$sampling"`); roots from `--root`.
 */
export async function openSession(
  options: CommonOptions | RunOptions,
  server: ServerTarget,
  // With --json, stdout carries the JSON document only: progress goes to stderr.
  // Progress shares stdout with the result only on a terminal; piped or with --json, stdout is the result alone.
  reporter = new StatusReporter(options.json || process.stdout.isTTY !== true ? process.stderr : process.stdout),
): Promise<Session> {
  const journal = openJournal(options, server);
  const controller = new AbortController();
  const handlers = 'roots' in options ? inputHandlers(options, reporter, controller) : {};
  // Without --token, a server the person logged in to gets the kept token (refreshed silently when it expires).
  const fetch =
    options.token === undefined && server.kind === 'url'
      ? await storedLoginFetch(server.url, options.configDir)
      : undefined;
  let reconnected = false;
  const transport = await openTransport(server, {
    token: options.token,
    verbose: options.verbose,
    fetch,
    retryForMs: 'retryForMs' in options ? options.retryForMs : undefined,
    onReconnecting: ({ code, delayMs, leftMs }) => {
      reconnected = true;
      reporter.line(retryingLine(`WebSocket closed, code ${code}`, delayMs, leftMs));
    },
  });
  let transportClosed = false;
  void transport.closed.then(() => {
    transportClosed = true;
  });
  const client = new McpClient({
    transport,
    clientInfo: CLIENT_INFO,
    handlers,
    tasks: { journal },
    versionNegotiation: options.protocol === undefined ? 'auto' : { pin: options.protocol },
    // A server silent for half the connect timeout is taken for a 2025-era one that ignores the probe.
    probeTimeoutMs: options.connectTimeoutMs / 2,
  });
  const close = () => client.close();
  try {
    const connection = await handshake(client, transport, server, options.connectTimeoutMs);
    if (options.verbose) process.stderr.write(`${describeConnection(connection, options.protocol !== undefined)}\n`);
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  return {
    client,
    journal,
    reporter,
    server,
    controller,
    transportClosed: () => transportClosed,
    reconnected: () => reconnected,
    close,
  };
}

/** The `--verbose` line that says which era and version the run speaks. */
export function describeConnection(connection: ServerConnection, pinned: boolean): string {
  const how = pinned ? 'pinned with --protocol' : 'detected';
  if (connection.era === 'legacy') {
    const { name, version } = connection.initialize.serverInfo;
    return `protocol: MCP ${connection.protocolVersion}, 2025 era (initialize handshake; ${how}); server ${name} ${version}`;
  }
  const versions = connection.discover?.supportedVersions.join(', ');
  return `protocol: MCP ${connection.protocolVersion}, 2026-07-28 era (${how})${versions === undefined ? '' : `; server supports ${versions}`}`;
}

/**
 * Negotiates the protocol era (`server/discover`, falling back to `initialize`; or the pinned version) within
 * `timeoutMs`: a command line that is not an MCP server on stdio (or a URL that never answers) fails here with a
 * clear message instead of hanging. A pinned 2026-07-28 client still sends `server/discover` to check the server.
 */
async function handshake(
  client: McpClient,
  transport: OpenedTransport,
  server: ServerTarget,
  timeoutMs: number,
): Promise<ServerConnection> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const connection = await client.connect({ signal: timeout });
    if (connection.era === 'legacy' || connection.discover !== undefined) return connection;
    return { ...connection, discover: await client.discover({ signal: timeout }) };
  } catch (error) {
    if (!timeout.aborted || error instanceof TransportError || isProtocolError(error)) throw error;
    const said = transport.serverSaid?.();
    const what = server.kind === 'stdio' ? `the stdio server (${server.command})` : server.url;
    const hint =
      server.kind === 'stdio'
        ? ` Is it an MCP server speaking stdio? (the sample tool server needs --transport stdio)${said ? ` It said: ${said}` : ''}`
        : '';
    throw new ConnectionError(
      `${what} did not answer within ${timeoutMs / 1000} s (--connect-timeout).${hint}`.replace(/\.\s*$/, ''),
    );
  }
}

function inputHandlers(options: RunOptions, reporter: StatusReporter, controller: AbortController): InputHandlers {
  const answers = options.answers === undefined ? undefined : loadAnswers(options.answers);
  const form = new TerminalForm(process.stdin, process.stderr, {
    before: () => reporter.pause(),
    after: () => reporter.resume(),
  });
  const handlers: { -readonly [K in keyof InputHandlers]: InputHandlers[K] } = {
    elicitation: async (params, { signal }) => {
      if (answers === undefined && process.stdin.isTTY !== true) {
        if (options.nonInteractive !== undefined) {
          reporter.line(
            `no terminal to ask "${params.message}" on: answering ${options.nonInteractive} (--non-interactive)`,
          );
          return { action: options.nonInteractive };
        }
        // Answering anything here would be a guess the user never made: stop the run and say how to answer.
        const error = new UsageError(
          `the server asks "${params.message}", and there is no terminal to ask on: pass --answers <file>, or --non-interactive decline|cancel`,
        );
        controller.abort(error);
        throw error;
      }
      if (answers === undefined) return form.ask(params, signal);
      try {
        const result = answerFromFile(answers, params);
        reporter.line(`answered "${params.message}" from ${options.answers}: ${describeAnswer(result)}`);
        return result;
      } catch (error) {
        // A file that does not fit the form is the script's mistake: stop the run (exit 2) instead of declining a
        // form on the user's behalf, which a tool reports as a plain "cancelled" and a script reads as success.
        controller.abort(error);
        throw error;
      }
    },
    sampling: (params) => {
      const result = builtinSample(params, answers?.sampling);
      const source = answers?.sampling === undefined ? 'the built-in responder (no model attached)' : options.answers;
      reporter.line(`answered a sampling request with ${source}`);
      return result;
    },
  };
  if (options.roots.length > 0) {
    const roots = options.roots.map((uri) => {
      if (!URL.canParse(uri)) throw new UsageError(`--root must be a URI (e.g. file:///path), got ${uri}`);
      return { uri };
    });
    handlers.roots = () => ({ roots });
  }
  return handlers;
}

function describeAnswer(result: { action: string; content?: unknown }): string {
  return result.content === undefined ? result.action : `${result.action} ${JSON.stringify(result.content)}`;
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
