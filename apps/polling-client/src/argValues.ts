/** Validation of the CLI's option and operand values, each failure a one-line `UsageError`. */
import { UsageError } from './cliErrors.js';

/** Where the server is: a URL (http, https, ws, wss) or a command line to spawn for stdio. */
export type ServerTarget =
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'stdio'; readonly command: string };

/** A commander argument parser for a number of seconds ≥ 0, named `flag` in its error. */
export function seconds(flag: string): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value) || value < 0)
      throw new UsageError(`${flag} must be a number of seconds ≥ 0, got "${text}"`);
    return value;
  };
}

/** `--url` or `--stdio` (not both) as a {@link ServerTarget}; undefined when neither is given. */
export function serverTarget(url: string | undefined, stdio: string | undefined): ServerTarget | undefined {
  if (url !== undefined && stdio !== undefined) throw new UsageError('give either --url or --stdio, not both');
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

/** `options` when they name a server; a usage error otherwise. */
export function needServer<T extends { readonly server: ServerTarget | undefined }>(options: T): T {
  if (options.server === undefined) throw new UsageError('say which server: --url <url> or --stdio "<command>"');
  return options;
}

/** `--args`: a JSON object. */
export function parseToolArgs(text: string | undefined): Record<string, unknown> {
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
