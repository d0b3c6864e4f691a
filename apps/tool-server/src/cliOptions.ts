import { parseArgs } from 'node:util';
import { AUTH_OPTIONS, AUTH_USAGE, parseAuth } from './authOptions.js';
import { EXECUTION_OPTIONS, EXECUTION_USAGE, type ExecutionCliOptions, parseExecution } from './executionCliOptions.js';
import { LIMIT_OPTIONS, LIMITS_USAGE, parseLimits, type TransportLimits } from './limitOptions.js';
import { LOG_LEVELS, type LogLevelName } from './logger.js';
import type { OAuthOption } from './oauthResource.js';

/** Which transport the server speaks. */
export type TransportName = 'stdio' | 'http' | 'ws';
/** Which tools, prompts and resources are registered. */
export type ToolSet = 'demo' | 'conformance' | 'all';

/** Where tasks live: this process's memory, a PostgreSQL server, or a private PostgreSQL on a data directory. */
export type StoreOption =
  | { readonly kind: 'memory' }
  | { readonly kind: 'postgres'; readonly url: string }
  | { readonly kind: 'embedded'; readonly dataDir: string };

/** The parsed command line. */
export interface CliOptions {
  readonly transport: TransportName;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly tools: ToolSet;
  /**
   * `--token`, repeatable: when any is given, every request (http) or connection (ws) must carry
   * `Authorization: Bearer <token>` with one of them; each token is its own principal (its own tasks).
   */
  readonly tokens: readonly string[];
  /** The `--auth-*` options: accept OAuth access tokens from that issuer (http, ws). */
  readonly auth?: OAuthOption | undefined;
  readonly logLevel: LogLevelName;
  /** Also serve the task console (apps/task-console) under `/console/` on the same port (http, ws). */
  readonly console: boolean;
  /** `--store` (or `MCP_TASKS_STORE`). @default memory */
  readonly store: StoreOption;
  /** This instance's worker id (leases, notifications). @default unique per process */
  readonly instanceId: string | undefined;
  /** How long a running task's lease lasts before another instance may declare its worker lost. @default 30000 */
  readonly leaseMs: number | undefined;
  /** How long a finished task stays at most; null keeps it until its TTL. @default 600000 (the runtime default) */
  readonly keepFinishedMs: number | null | undefined;
  /** Most tasks one principal may hold at once (finished ones count until they are dropped). @default 10000 */
  readonly maxTasksPerPrincipal: number;
  /** Resource limits given on the command line (undefined: every transport default). */
  readonly limits?: TransportLimits | undefined;
  /** Durable execution: role, parking, concurrency, drain. */
  readonly execution: ExecutionCliOptions;
  /** `--otel`: export traces and metrics over OTLP (docs/guides/telemetry.md). Absent when not given. */
  readonly otel?: true;
}

/** A command line that cannot be run; the message is one readable line. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Help text for `--help`. */
export const USAGE = `Usage: mcp-tasks-tool-server [options]

Options:
  --transport stdio|http|ws   transport to serve (default http)
  --host HOST                 interface to bind for http/ws (default 127.0.0.1)
  --port PORT                 port for http/ws; 0 picks a free one (default 0)
  --tools demo|conformance|all
                              tools to register (default all)
  --token TOKEN               require "Authorization: Bearer TOKEN" (http, ws); repeat it for
                              several principals, each seeing only its own tasks
${AUTH_USAGE}
  --console                   also serve the task console at /console/ (http, ws)
  --store memory|postgres://user:pass@host:port/db|embedded:DIR
                              where tasks live (default memory, or $MCP_TASKS_STORE);
                              embedded: starts a private PostgreSQL on DIR
  --instance-id ID            this instance's worker id (default unique per process)
  --lease-ms MS               lease of a running task; a worker silent this long is lost (default 30000)
  --keep-finished-ms MS|none  how long a finished task stays before it is dropped (default 600000;
                              none keeps it until its 1 h TTL)
  --max-tasks-per-principal N tasks one principal may hold at once; one more gets -32029 / HTTP 429 (default 10000)
  --log-level debug|info|warn|error|silent
                              stderr verbosity (default info)
  --otel                      export traces and metrics over OTLP/HTTP (OTEL_EXPORTER_OTLP_ENDPOINT,
                              default http://localhost:4318); log lines carry trace_id and span_id
  -V, --version               print the version
  -h, --help                  show this help

${EXECUTION_USAGE}

${LIMITS_USAGE}

For http and ws the endpoint URL is printed to stderr once the server is ready.`;

const OPTIONS = {
  transport: { type: 'string', default: 'http' },
  host: { type: 'string', default: '127.0.0.1' },
  port: { type: 'string', default: '0' },
  tools: { type: 'string', default: 'all' },
  token: { type: 'string', multiple: true },
  ...AUTH_OPTIONS,
  'log-level': { type: 'string', default: 'info' },
  console: { type: 'boolean', default: false },
  otel: { type: 'boolean', default: false },
  store: { type: 'string' },
  'instance-id': { type: 'string' },
  'lease-ms': { type: 'string' },
  'keep-finished-ms': { type: 'string' },
  'max-tasks-per-principal': { type: 'string' },
  ...EXECUTION_OPTIONS,
  ...LIMIT_OPTIONS,
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'V', default: false },
} as const;

/** Every option as typed, for "did you mean" and the list of what is valid. */
const OPTION_NAMES = Object.keys(OPTIONS).map((name) => `--${name}`);

/**
 * One readable line for a `parseArgs` failure: an unknown option names the closest valid one and lists them all;
 * a value that starts with `-` says how to pass it.
 */
function explainParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /^Unknown option '([^']+)'/.exec(message)?.[1];
  if (unknown !== undefined) {
    const near = closest(unknown.replace(/=.*$/, ''), OPTION_NAMES);
    return `unknown option ${unknown}${near === undefined ? '' : ` (did you mean ${near}?)`}; valid options: ${OPTION_NAMES.join(', ')}`;
  }
  const dashed = /^Option '(--[\w-]+)[^']*' argument is ambiguous/.exec(message)?.[1];
  if (dashed !== undefined) return `${dashed} needs a value; for one that starts with "-" write ${dashed}=<value>`;
  const missing = /^Option '(--[\w-]+)[^']*' argument missing/.exec(message)?.[1];
  if (missing !== undefined) return `${missing} needs a value`;
  const positional = /^Unexpected argument '([^']*)'/.exec(message)?.[1];
  if (positional !== undefined) return `unexpected argument "${positional}": this command takes options only`;
  // parseArgs messages are one readable line followed by hints: keep the line.
  return (message.split('\n')[0] ?? message).replace(/\.$/, '');
}

/** The candidate within edit distance 2 of `typed`, if any. */
function closest(typed: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(typed, name);
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return previous[b.length] ?? 0;
}

const TRANSPORTS: readonly TransportName[] = ['stdio', 'http', 'ws'];
const TOOL_SETS: readonly ToolSet[] = ['demo', 'conformance', 'all'];

function oneOf<T extends string>(option: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${option} must be one of ${allowed.join(', ')} (got "${value}")`);
}

/**
 * Parses the command line (without the node and script arguments). Returns `'help'` for `--help`, `'version'`
 * for `--version`; throws {@link UsageError} (one line saying what is valid) on an unknown option, a missing or
 * invalid value, or a positional argument.
 */
export function parseCliOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): CliOptions | 'help' | 'version' {
  let values: Record<string, string | boolean | undefined>;
  let tokens: readonly string[];
  try {
    const { token = [], ...rest } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: OPTIONS,
    }).values;
    values = rest;
    tokens = token;
  } catch (error) {
    throw new UsageError(explainParseError(error));
  }
  if (values.help === true) return 'help';
  if (values.version === true) return 'version';
  const transport = oneOf('transport', String(values.transport), TRANSPORTS);
  const portText = String(values.port);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535) {
    throw new UsageError(`--port must be an integer from 0 to 65535 (got "${portText}")`);
  }
  if (tokens.some((token) => !/^[\x21-\x7e]+$/.test(token))) {
    throw new UsageError('--token must be non-empty printable ASCII without spaces');
  }
  if (new Set(tokens).size !== tokens.length) throw new UsageError('--token given twice with the same value');
  if (tokens.length > 0 && transport === 'stdio') {
    throw new UsageError('--token applies to http and ws only (a stdio server trusts the process that spawned it)');
  }
  if (values.console === true && transport === 'stdio') {
    throw new UsageError('--console applies to http and ws only (it is a web page served on the same port)');
  }
  const host = String(values.host);
  if (host === '') throw new UsageError('--host must not be empty');
  return {
    transport,
    host,
    port,
    tools: oneOf('tools', String(values.tools), TOOL_SETS),
    tokens,
    auth: parseAuth(values, {
      transport,
      tokens,
      console: values.console === true,
      env,
      fail: (message) => new UsageError(message),
    }),
    logLevel: oneOf('log-level', String(values['log-level']), LOG_LEVELS),
    console: values.console === true,
    store: parseStore(values.store === undefined ? (env.MCP_TASKS_STORE ?? 'memory') : String(values.store)),
    instanceId: parseInstanceId(values['instance-id']),
    leaseMs: parseLeaseMs(values['lease-ms']),
    keepFinishedMs: parseKeepFinishedMs(values['keep-finished-ms']),
    maxTasksPerPrincipal: parseMaxTasks(values['max-tasks-per-principal']),
    limits: parseLimits(values, (message) => new UsageError(message)),
    execution: parseExecution(values, (message) => new UsageError(message)),
    ...(values.otel === true ? { otel: true as const } : {}),
  };
}

function parseStore(text: string): StoreOption {
  if (text === 'memory') return { kind: 'memory' };
  if (/^postgres(ql)?:\/\//.test(text)) {
    if (!URL.canParse(text)) throw new UsageError('--store must be a valid postgres:// URL');
    return { kind: 'postgres', url: text };
  }
  if (text.startsWith('embedded:') && text.length > 'embedded:'.length) {
    return { kind: 'embedded', dataDir: text.slice('embedded:'.length) };
  }
  throw new UsageError(`--store must be memory, a postgres:// URL or embedded:DIR (got "${text}")`);
}

function parseInstanceId(value: string | boolean | undefined): string | undefined {
  if (value === undefined) return undefined;
  const id = String(value);
  if (!/^[\x21-\x7e]{1,100}$/.test(id)) throw new UsageError('--instance-id must be 1-100 printable ASCII characters');
  return id;
}

function parseLeaseMs(value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  const ms = Number(text);
  if (!/^\d+$/.test(text) || ms < 100 || ms > 86_400_000) {
    throw new UsageError(`--lease-ms must be an integer from 100 to 86400000 (got "${text}")`);
  }
  return ms;
}

/** `--keep-finished-ms`: an integer from 0 to 86400000, or `none` (null: keep finished tasks until their TTL). */
function parseKeepFinishedMs(value: string | boolean | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (text === 'none') return null;
  const ms = Number(text);
  if (!/^\d+$/.test(text) || ms > 86_400_000) {
    throw new UsageError(`--keep-finished-ms must be an integer from 0 to 86400000, or none (got "${text}")`);
  }
  return ms;
}

/** `--max-tasks-per-principal`: a positive integer. @default 10000, the runtime's own default */
function parseMaxTasks(value: string | boolean | undefined): number {
  if (value === undefined) return 10_000;
  const text = String(value);
  const max = Number(text);
  if (!/^\d+$/.test(text) || max < 1 || max > 10_000_000) {
    throw new UsageError(`--max-tasks-per-principal must be an integer from 1 to 10000000 (got "${text}")`);
  }
  return max;
}
