/**
 * Command-line parsing with commander: subcommands, per-command `--help`, `--version`, and one validated
 * `Command` (or a `UsageError` with a one-line reason).
 */
import type { PinnableProtocolVersion } from '@mcp-tasks/client';
import { CommanderError, Option, Command as Program } from 'commander';
import { needServer, parseToolArgs, type ServerTarget, seconds, serverTarget } from './argValues.js';
import { type AuthCommand, addAuthCommands, CONFIG_DIR_HELP } from './authArgs.js';
import { UsageError } from './cliErrors.js';
import { guardOperand } from './operandGuard.js';

export type { ServerTarget } from './argValues.js';

/** Options shared by every command that talks to a server. */
export interface CommonOptions {
  /** Absent when neither --url nor --stdio was given (`resume` may take it from the journal). */
  readonly server: ServerTarget | undefined;
  readonly token: string | undefined;
  readonly journal: string | undefined;
  readonly json: boolean;
  readonly verbose: boolean;
  /** How long the server has to answer the first request before the client gives up on it. */
  readonly connectTimeoutMs: number;
  /** `--protocol`: speak this version without probing; undefined: detect the server's era. */
  readonly protocol: PinnableProtocolVersion | undefined;
  /** `--config-dir`: where `login` kept the tokens (undefined: the default). */
  readonly configDir: string | undefined;
}

/** The versions `--protocol` accepts, newest first. */
export const PROTOCOL_CHOICES: readonly PinnableProtocolVersion[] = [
  '2026-07-28',
  '2025-11-25',
  '2025-06-18',
  '2025-03-26',
];

/** What to answer a form with when there is no terminal to ask on and no `--answers` file. */
export type NonInteractiveAction = 'decline' | 'cancel';

/** Options of `call` and `resume`. */
export interface RunOptions extends CommonOptions {
  readonly answers: string | undefined;
  readonly roots: readonly string[];
  readonly nonInteractive: NonInteractiveAction | undefined;
  /** How long to keep retrying when the server goes away mid-task (0: give up at once). */
  readonly retryForMs: number;
}

/** One parsed invocation. `printed`: help or version was written, nothing to run. */
export type Command =
  | { readonly name: 'printed' }
  | { readonly name: 'tools'; readonly options: CommonOptions }
  | {
      readonly name: 'call';
      readonly tool: string;
      readonly args: Record<string, unknown>;
      readonly detach: boolean;
      readonly options: RunOptions;
    }
  | { readonly name: 'resume'; readonly taskId: string; readonly options: RunOptions }
  | { readonly name: 'status' | 'cancel'; readonly taskId: string; readonly options: CommonOptions }
  | { readonly name: 'pending'; readonly refresh: boolean; readonly options: CommonOptions }
  | { readonly name: 'conformance'; readonly url: string }
  | AuthCommand;

/** The program's name, as installed. */
export const PROGRAM = 'mcp-tasks-polling-client';

const EXIT_CODES = `Exit codes:
  0    completed            1    completed with isError
  2    usage error          3    cancelled, expired or unknown task
  4    connection error     5    failed (task failed or JSON-RPC error)
  130  interrupted (Ctrl-C cancels the task first)`;

const DEFAULT_CONNECT_TIMEOUT_S = 10;
const DEFAULT_RETRY_FOR_S = 30;

/** Where commander's help, version and error text go (stdout and stderr by default). */
export interface ParseOutput {
  readonly out: (text: string) => void;
  /** Where the command overview goes when no command was given (a usage error: never stdout). */
  readonly err?: (text: string) => void;
}

/**
 * Parses argv (without the node and script paths). Writes help or the version through `output` and returns
 * `printed`; throws `UsageError` with a one-line reason otherwise. A task id or tool name that starts with `-` is
 * taken as the operand it is (ids are random, and about one in 64 starts with `-`).
 */
export function parseCliArgs(
  argv: readonly string[],
  version = '0.0.0',
  output: ParseOutput = { out: (text) => process.stdout.write(text) },
): Command {
  let parsed: Command | undefined;
  const program = buildProgram(version, output, (command) => {
    parsed = command;
  });
  try {
    program.parse(guardOperand(program, argv), { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) return { name: 'printed' };
    // No subcommand at all: commander would print the overview itself; show it, and make it a usage error.
    if (error.code === 'commander.help') noCommand(program, output);
    // commander's messages start with "error: "; the CLI adds its own prefix and one hint.
    throw new UsageError(error.message.replace(/^error:\s*/, ''));
  }
  if (parsed === undefined) noCommand(program, output);
  return parsed;
}

function noCommand(program: Program, output: ParseOutput): never {
  (output.err ?? ((text: string) => process.stderr.write(text)))(program.helpInformation());
  throw new UsageError('a command is required');
}

/** The subcommand named in argv, for the "run <command> --help" hint. */
export function commandOf(argv: readonly string[]): string | undefined {
  return argv.find((word) => !word.startsWith('-'));
}

interface RawOptions {
  url?: string;
  stdio?: string;
  token?: string;
  journal?: string;
  json?: boolean;
  verbose?: boolean;
  connectTimeout: number;
  protocol?: PinnableProtocolVersion;
  args?: string;
  answers?: string;
  root: string[];
  detach?: boolean;
  nonInteractive?: NonInteractiveAction;
  retryFor: number;
  refresh?: boolean;
  configDir?: string;
}

function buildProgram(version: string, output: ParseOutput, done: (command: Command) => void): Program {
  const program = new Program(PROGRAM)
    .description('Follows MCP tool calls and Tasks-extension tasks to their end')
    .version(version, '-V, --version')
    .exitOverride()
    .configureOutput({ writeOut: output.out, writeErr: () => undefined, outputError: () => undefined })
    .showSuggestionAfterError(true)
    .addHelpText('after', `\n${EXIT_CODES}`);
  const sub = (name: string, description: string) =>
    program
      .command(name)
      .description(description)
      .exitOverride()
      .configureOutput({ writeOut: output.out, writeErr: () => undefined, outputError: () => undefined })
      .showSuggestionAfterError(true);

  withRun(withServer(sub('call', 'Call a tool and follow it to its end').argument('<tool>', 'tool name')))
    .option('--args <json>', 'tool arguments as a JSON object')
    .option('--detach', 'print the task id once the task exists, and exit')
    .action((tool: string, raw: RawOptions) =>
      done({
        name: 'call',
        tool,
        args: parseToolArgs(raw.args),
        detach: raw.detach ?? false,
        options: needServer(runOptions(raw)),
      }),
    );
  withRun(withServer(sub('resume', 'Follow a task created earlier (after --detach or a crash)')))
    .argument('<taskId>', 'task id')
    .action((taskId: string, raw: RawOptions) => done({ name: 'resume', taskId, options: runOptions(raw) }));
  withServer(sub('status', "Print a task's current state"))
    .argument('<taskId>', 'task id')
    .action((taskId: string, raw: RawOptions) => done({ name: 'status', taskId, options: commonOptions(raw) }));
  withServer(sub('cancel', 'Ask the server to cancel a task'))
    .argument('<taskId>', 'task id')
    .action((taskId: string, raw: RawOptions) => done({ name: 'cancel', taskId, options: commonOptions(raw) }));
  withServer(sub('tools', "List the server's tools")).action((raw: RawOptions) =>
    done({ name: 'tools', options: needServer(commonOptions(raw)) }),
  );
  withServer(sub('pending', 'List the journalled tasks with their last known state'))
    .option('--refresh', 'ask each task’s server for its state now; drop tasks that ended or are gone')
    .action((raw: RawOptions) => done({ name: 'pending', refresh: raw.refresh ?? false, options: commonOptions(raw) }));
  addAuthCommands(sub, done);
  sub('conformance', 'Conformance-suite client mode (also when MCP_CONFORMANCE_SCENARIO is set)')
    .argument('[args...]', 'the server URL comes last')
    .allowUnknownOption()
    .action((args: string[]) => {
      // The harness appends the mock server's URL as the last argument.
      const url = args.at(-1);
      if (url === undefined) throw new UsageError('conformance needs the server URL as its last argument');
      done({ name: 'conformance', url });
    });
  return program;
}

function withServer(command: Program): Program {
  return command
    .option('--url <url>', 'server endpoint: http(s)://…/mcp or ws(s)://…/mcp')
    .option('--stdio <command>', 'spawn the server and talk to it over stdin/stdout')
    .option('--token <token>', 'bearer token for --url servers (instead of the tokens kept by login)')
    .option('--config-dir <dir>', CONFIG_DIR_HELP)
    .option('--journal <file>', 'task journal (default: the per-user state directory)')
    .option('--json', 'machine-readable output: stdout carries one JSON document, everything else goes to stderr')
    .option('--verbose', 'print error details and the stdio server’s log')
    .addOption(
      new Option('--connect-timeout <seconds>', 'give up on a server that does not answer the first request')
        .default(DEFAULT_CONNECT_TIMEOUT_S)
        .argParser(seconds('--connect-timeout')),
    )
    .addOption(
      new Option(
        '--protocol <version>',
        'speak this MCP version without detecting it (default: server/discover, else the 2025 initialize handshake)',
      ).choices(PROTOCOL_CHOICES),
    );
}

function withRun(command: Program): Program {
  return command
    .option('--answers <file>', 'answer forms from a JSON file instead of prompting')
    .option('--root <uri>', 'declare a root (repeatable)', (uri: string, all: string[]) => [...all, uri], [])
    .addOption(
      new Option('--non-interactive <action>', 'with no terminal and no --answers, answer forms this way').choices([
        'decline',
        'cancel',
      ]),
    )
    .addOption(
      new Option('--retry-for <seconds>', 'keep retrying this long when the server goes away mid-task (0: never)')
        .default(DEFAULT_RETRY_FOR_S)
        .argParser(seconds('--retry-for')),
    );
}

function commonOptions(raw: RawOptions): CommonOptions {
  return {
    server: serverTarget(raw.url, raw.stdio),
    token: raw.token,
    journal: raw.journal,
    json: raw.json ?? false,
    verbose: raw.verbose ?? false,
    connectTimeoutMs: raw.connectTimeout * 1000,
    protocol: raw.protocol,
    configDir: raw.configDir,
  };
}

function runOptions(raw: RawOptions): RunOptions {
  return {
    ...commonOptions(raw),
    answers: raw.answers,
    roots: raw.root,
    nonInteractive: raw.nonInteractive,
    retryForMs: raw.retryFor * 1000,
  };
}
