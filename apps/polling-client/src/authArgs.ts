/** The `login` and `logout` subcommands' arguments. */
import { Option, type Command as Program } from 'commander';
import { seconds } from './argValues.js';
import type { AuthOptions } from './authCommands.js';
import { UsageError } from './cliErrors.js';

/** A parsed `login` or `logout`. */
export interface AuthCommand {
  readonly name: 'login' | 'logout';
  readonly url: string;
  readonly options: AuthOptions;
}

/** The help line of `--config-dir`, shared with the server commands. */
export const CONFIG_DIR_HELP =
  'where login keeps tokens (default: $MCP_TASKS_CONFIG_DIR, else the per-user config directory)';

const DEFAULT_LOGIN_TIMEOUT_S = 300;

interface RawAuthOptions {
  configDir?: string;
  json?: boolean;
  port: number;
  loginTimeout: number;
}

/** Adds `login <url>` and `logout <url>` through `sub` (which makes a subcommand); `done` receives the parse. */
export function addAuthCommands(
  sub: (name: string, description: string) => Program,
  done: (command: AuthCommand) => void,
): void {
  const common = (command: Program) =>
    command
      .argument('<url>', 'server endpoint: http(s)://…/mcp')
      .option('--config-dir <dir>', CONFIG_DIR_HELP)
      .option('--json', 'print one JSON document on stdout');
  common(sub('login', 'Log in to an OAuth-protected server: prints a URL to open, then keeps the tokens'))
    .addOption(
      new Option('--port <port>', 'port of the loopback redirect listener (0: any free port)')
        .default(0)
        .argParser(port),
    )
    .addOption(
      new Option('--login-timeout <seconds>', 'how long to wait for the login in the browser')
        .default(DEFAULT_LOGIN_TIMEOUT_S)
        .argParser(seconds('--login-timeout')),
    )
    .action((url: string, raw: RawAuthOptions) => done({ name: 'login', url, options: authOptions(raw) }));
  common(sub('logout', 'Forget the tokens kept for a server')).action((url: string, raw: RawAuthOptions) =>
    done({ name: 'logout', url, options: authOptions({ ...raw, port: 0, loginTimeout: 0 }) }),
  );
}

function authOptions(raw: RawAuthOptions): AuthOptions {
  return { configDir: raw.configDir, port: raw.port, timeoutMs: raw.loginTimeout * 1000, json: raw.json ?? false };
}

function port(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > 65_535) throw new UsageError(`--port must be 0 to 65535, got "${text}"`);
  return value;
}
