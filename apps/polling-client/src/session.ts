/**
 * One CLI run's connection: the transport, the `McpClient` with this CLI's input handlers and file journal, and
 * the status reporter the handlers talk through.
 */
import { readFileSync } from 'node:fs';
import { type InputHandlers, McpClient } from '@mcp-tasks/client';
import type { Implementation } from '@mcp-tasks/protocol';
import { answerFromFile, loadAnswers } from './answersFile.js';
import { builtinSample } from './builtinSampler.js';
import type { CommonOptions, RunOptions, ServerTarget } from './cliArgs.js';
import { UsageError } from './cliErrors.js';
import { defaultJournalPath, FileTaskJournal } from './fileTaskJournal.js';
import { openTransport } from './openTransport.js';
import { StatusReporter } from './statusReporter.js';
import { TerminalForm } from './terminalForm.js';

/** The `clientInfo` every request carries. */
export const CLIENT_INFO: Implementation = { name: 'mcp-tasks-polling-client', version: packageVersion() };

/** Everything a command needs to talk to the server. `close` releases the transport (and a stdio child). */
export interface Session {
  readonly client: McpClient;
  readonly journal: FileTaskJournal;
  readonly reporter: StatusReporter;
  readonly server: ServerTarget;
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
  reporter = new StatusReporter(process.stdout),
): Promise<Session> {
  const journal = openJournal(options, server);
  const handlers = 'roots' in options ? inputHandlers(options, reporter) : {};
  const transport = await openTransport(server, { token: options.token, verbose: options.verbose });
  const client = new McpClient({ transport, clientInfo: CLIENT_INFO, handlers, tasks: { journal } });
  return { client, journal, reporter, server, close: () => client.close() };
}

function inputHandlers(options: RunOptions, reporter: StatusReporter): InputHandlers {
  const answers = options.answers === undefined ? undefined : loadAnswers(options.answers);
  const form = new TerminalForm(process.stdin, process.stderr, {
    before: () => reporter.pause(),
    after: () => reporter.resume(),
  });
  const handlers: { -readonly [K in keyof InputHandlers]: InputHandlers[K] } = {
    elicitation: async (params, { signal }) => {
      if (answers === undefined) return form.ask(params, signal);
      try {
        const result = answerFromFile(answers, params);
        reporter.line(`answered "${params.message}" from ${options.answers}: ${describeAnswer(result)}`);
        return result;
      } catch (error) {
        reporter.line(`cannot answer "${params.message}": ${(error as Error).message}; cancelling the form`);
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
