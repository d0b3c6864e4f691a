import { parseArgs } from 'node:util';
import { LIMIT_OPTIONS, LIMITS_USAGE, parseLimits, type TransportLimits } from './limitOptions.js';
import { LOG_LEVELS, type LogLevelName } from './logger.js';

/** Which transport the server speaks. */
export type TransportName = 'stdio' | 'http' | 'ws';
/** Which tools, prompts and resources are registered. */
export type ToolSet = 'demo' | 'conformance' | 'all';

/** The parsed command line. */
export interface CliOptions {
  readonly transport: TransportName;
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly tools: ToolSet;
  /** When set, every request (http) or connection (ws) must carry `Authorization: Bearer <token>`. */
  readonly token: string | undefined;
  readonly logLevel: LogLevelName;
  /** Also serve the task console (apps/task-console) under `/console/` on the same port (http, ws). */
  readonly console: boolean;
  /** Resource limits given on the command line (undefined: every transport default). */
  readonly limits?: TransportLimits | undefined;
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
  --token TOKEN               require "Authorization: Bearer TOKEN" (http, ws)
  --console                   also serve the task console at /console/ (http, ws)
  --log-level debug|info|warn|error|silent
                              stderr verbosity (default info)
  -V, --version               print the version
  -h, --help                  show this help

${LIMITS_USAGE}

For http and ws the endpoint URL is printed to stderr once the server is ready.`;

const TRANSPORTS: readonly TransportName[] = ['stdio', 'http', 'ws'];
const TOOL_SETS: readonly ToolSet[] = ['demo', 'conformance', 'all'];

function oneOf<T extends string>(option: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${option} must be one of ${allowed.join(', ')} (got "${value}")`);
}

/**
 * Parses the command line (without the node and script arguments). Returns `'help'` for `--help`, `'version'`
 * for `--version`; throws
 * {@link UsageError} on an unknown option, a missing or invalid value, or a positional argument.
 */
export function parseCliOptions(argv: readonly string[]): CliOptions | 'help' | 'version' {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        transport: { type: 'string', default: 'http' },
        host: { type: 'string', default: '127.0.0.1' },
        port: { type: 'string', default: '0' },
        tools: { type: 'string', default: 'all' },
        token: { type: 'string' },
        'log-level': { type: 'string', default: 'info' },
        help: { type: 'boolean', short: 'h', default: false },
        version: { type: 'boolean', short: 'V', default: false },
        console: { type: 'boolean', default: false },
        ...LIMIT_OPTIONS,
      },
    }));
  } catch (error) {
    // parseArgs messages are already one readable line; drop its trailing hints.
    throw new UsageError(error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error));
  }
  if (values.help === true) return 'help';
  if (values.version === true) return 'version';
  const transport = oneOf('transport', String(values.transport), TRANSPORTS);
  const portText = String(values.port);
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65_535) {
    throw new UsageError(`--port must be an integer from 0 to 65535 (got "${portText}")`);
  }
  const token = values.token === undefined ? undefined : String(values.token);
  if (token !== undefined && !/^[\x21-\x7e]+$/.test(token)) {
    throw new UsageError('--token must be non-empty printable ASCII without spaces');
  }
  if (token !== undefined && transport === 'stdio') {
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
    token,
    logLevel: oneOf('log-level', String(values['log-level']), LOG_LEVELS),
    console: values.console === true,
    limits: parseLimits(values, (message) => new UsageError(message)),
  };
}
