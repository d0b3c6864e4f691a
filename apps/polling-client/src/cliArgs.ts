/** Command-line parsing: turns argv into one validated command, or a `UsageError`. */
import { parseArgs } from 'node:util';
import { UsageError } from './cliErrors.js';

/** Where the server is: a URL (http, https, ws, wss) or a command line to spawn for stdio. */
export type ServerTarget =
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'stdio'; readonly command: string };

/** Options shared by every command. */
export interface CommonOptions {
  /** Absent when neither --url nor --stdio was given (`resume` may take it from the journal). */
  readonly server: ServerTarget | undefined;
  readonly token: string | undefined;
  readonly journal: string | undefined;
  readonly json: boolean;
  readonly verbose: boolean;
}

/** Options of `call` and `resume`. */
export interface RunOptions extends CommonOptions {
  readonly answers: string | undefined;
  readonly roots: readonly string[];
}

/** One parsed invocation. */
export type Command =
  | { readonly name: 'help' }
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
  | { readonly name: 'pending'; readonly options: CommonOptions }
  | { readonly name: 'conformance'; readonly url: string };

/** The usage text printed by `help` and after a usage error. */
export const USAGE = `Usage: mcp-tasks-polling-client <command> [options]

Commands:
  tools                      List the server's tools
  call <tool>                Call a tool and follow it to its end
       [--args '<json>'] [--answers <file>] [--root <uri>]... [--detach]
  resume <taskId>            Follow a task created earlier (e.g. after --detach or a crash)
  status <taskId>            Print a task's current state
  cancel <taskId>            Ask the server to cancel a task
  pending                    List the tasks in the journal with their last known state
  conformance <url>          Conformance-suite client mode (also when MCP_CONFORMANCE_SCENARIO is set)

Server (one of):
  --url <http(s)://…/mcp | ws(s)://…/mcp>
  --stdio "<command line>"   Spawn the server and talk to it over stdin/stdout
  --token <token>            Bearer token for --url servers

Other options:
  --journal <file>  Task journal (default: $XDG_STATE_HOME/mcp-tasks/journal.json)
  --json            Print raw JSON results
  --verbose         Print error details

Exit codes: 0 completed, 1 completed with isError, 2 failed, 3 cancelled or expired, 4 usage or connection error,
130 interrupted (Ctrl-C cancels the task first).`;

const OPTIONS = {
  url: { type: 'string' },
  stdio: { type: 'string' },
  token: { type: 'string' },
  args: { type: 'string' },
  answers: { type: 'string' },
  root: { type: 'string', multiple: true },
  detach: { type: 'boolean' },
  journal: { type: 'string' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Parses argv (without the node and script paths). Throws `UsageError` with a one-line reason. */
export function parseCliArgs(argv: readonly string[]): Command {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const [name, ...rest] = positionals;
  if (values.help || name === undefined || name === 'help') return { name: 'help' };
  const common: CommonOptions = {
    server: serverTarget(values.url, values.stdio),
    token: values.token,
    journal: values.journal,
    json: values.json ?? false,
    verbose: values.verbose ?? false,
  };
  const run: RunOptions = { ...common, answers: values.answers, roots: values.root ?? [] };
  switch (name) {
    case 'tools':
      expectArgs(name, rest, 0);
      return { name, options: needServer(common) };
    case 'pending':
      expectArgs(name, rest, 0);
      return { name, options: common };
    case 'call': {
      const [tool] = expectArgs(name, rest, 1, '<tool>');
      return {
        name,
        tool,
        args: parseToolArgs(values.args),
        detach: values.detach ?? false,
        options: needServer(run),
      };
    }
    case 'resume': {
      const [taskId] = expectArgs(name, rest, 1, '<taskId>');
      return { name, taskId, options: run };
    }
    case 'status':
    case 'cancel': {
      const [taskId] = expectArgs(name, rest, 1, '<taskId>');
      return { name, taskId, options: common };
    }
    case 'conformance': {
      // The harness appends the mock server's URL as the last argument.
      const url = rest.at(-1) ?? values.url;
      if (url === undefined) throw new UsageError('conformance needs the server URL as its last argument');
      return { name, url };
    }
    default:
      throw new UsageError(`Unknown command "${name}" (try --help)`);
  }
}

function serverTarget(url: string | undefined, stdio: string | undefined): ServerTarget | undefined {
  if (url !== undefined && stdio !== undefined) throw new UsageError('Give either --url or --stdio, not both');
  if (stdio !== undefined) {
    if (stdio.trim() === '') throw new UsageError('--stdio needs a command line');
    return { kind: 'stdio', command: stdio };
  }
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url is not a valid URL: ${url}`);
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(parsed.protocol))
    throw new UsageError(`--url must be http(s):// or ws(s)://, got ${parsed.protocol}//`);
  return { kind: 'url', url };
}

function needServer<T extends CommonOptions>(options: T): T {
  if (options.server === undefined) throw new UsageError('Say which server: --url <url> or --stdio "<command>"');
  return options;
}

function expectArgs(command: string, rest: readonly string[], count: 0): [];
function expectArgs(command: string, rest: readonly string[], count: 1, what: string): [string];
function expectArgs(command: string, rest: readonly string[], count: number, what = ''): string[] {
  if (rest.length < count) throw new UsageError(`${command} needs ${what}`);
  if (rest.length > count) throw new UsageError(`${command}: unexpected argument "${rest[count]}"`);
  return [...rest];
}

function parseToolArgs(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--args is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError('--args must be a JSON object');
  return value as Record<string, unknown>;
}
