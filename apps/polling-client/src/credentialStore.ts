/**
 * The `login` command's token store: OAuth tokens per server and client registrations per authorization server,
 * in one JSON file only its owner can read (0600, in a 0700 directory), so every later command against a server
 * the person logged in to sends its token and refreshes it silently.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { StoredClient, StoredTokens, TokenStore } from '@mcp-tasks/oauth-client';
import envPaths from 'env-paths';
import { UsageError } from './cliErrors.js';

/** The environment variable naming the config directory (tests, or a second identity). */
export const CONFIG_DIR_ENV = 'MCP_TASKS_CONFIG_DIR';

interface CredentialsFile {
  readonly version: 1;
  readonly tokens: Record<string, StoredTokens>;
  readonly clients: Record<string, StoredClient>;
}

/**
 * The config directory: `--config-dir`, else `$MCP_TASKS_CONFIG_DIR`, else the per-user config directory of each
 * platform (env-paths: Linux `$XDG_CONFIG_HOME/mcp-tasks`, i.e. `~/.config/mcp-tasks`; macOS
 * `~/Library/Preferences/mcp-tasks`; Windows `%APPDATA%\mcp-tasks\Config`).
 */
export function configDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return flag ?? env[CONFIG_DIR_ENV] ?? envPaths('mcp-tasks', { suffix: '' }).config;
}

/**
 * The key tokens are kept under for a server URL: the URL without its fragment, and the bare origin for a root
 * path, as `@mcp-tasks/oauth-client` keys them.
 */
export function serverKey(url: string | URL): string {
  const parsed = new URL(String(url));
  parsed.hash = '';
  return parsed.pathname === '/' && parsed.search === '' ? parsed.origin : parsed.href;
}

/** A {@link TokenStore} in `credentials.json` of a config directory. */
export class FileTokenStore implements TokenStore {
  readonly path: string;

  constructor(directory: string) {
    this.path = join(directory, 'credentials.json');
  }

  async getTokens(resource: string): Promise<StoredTokens | undefined> {
    return this.#read().tokens[resource];
  }

  async setTokens(resource: string, tokens: StoredTokens | undefined): Promise<void> {
    const file = this.#read();
    const { [resource]: _, ...others } = file.tokens;
    this.#write({ ...file, tokens: tokens === undefined ? others : { ...others, [resource]: tokens } });
  }

  async getClient(issuer: string): Promise<StoredClient | undefined> {
    return this.#read().clients[issuer];
  }

  async setClient(issuer: string, client: StoredClient | undefined): Promise<void> {
    const file = this.#read();
    const { [issuer]: _, ...others } = file.clients;
    this.#write({ ...file, clients: client === undefined ? others : { ...others, [issuer]: client } });
  }

  #read(): CredentialsFile {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, tokens: {}, clients: {} };
      throw new UsageError(`Cannot read ${this.path}: ${(error as Error).message}`);
    }
    try {
      const parsed = JSON.parse(text) as Partial<CredentialsFile>;
      return { version: 1, tokens: parsed.tokens ?? {}, clients: parsed.clients ?? {} };
    } catch {
      throw new UsageError(`${this.path} is not valid JSON; delete it and log in again`);
    }
  }

  /** Through a temporary file and a rename, both 0600: never a half-written file, never readable by others. */
  #write(file: CredentialsFile): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.path);
  }
}
