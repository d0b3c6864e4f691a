/**
 * Resource limits set on the command line; each is undefined unless given, leaving the transport's documented
 * default (see docs/security.md).
 */
export interface TransportLimits {
  /** http, ws: connections open at once. */
  readonly maxConnections?: number | undefined;
  /** http, ws: connections open at once from one client address. */
  readonly maxConnectionsPerClient?: number | undefined;
  /** http: time allowed for a request's headers. */
  readonly headersTimeoutMs?: number | undefined;
  /** http: time allowed for a whole request, body included. */
  readonly requestTimeoutMs?: number | undefined;
  /** http: idle keep-alive connections; ws: sockets with nothing in flight. */
  readonly idleTimeoutMs?: number | undefined;
  /** ws, stdio: requests running at once per connection. */
  readonly maxInFlight?: number | undefined;
  /** ws, stdio: open listen streams per connection. */
  readonly maxListens?: number | undefined;
  /** all: largest message (http body, ws frame, stdio line) in bytes. */
  readonly maxMessageBytes?: number | undefined;
  /** all: deepest nesting of objects and arrays in a message. */
  readonly maxDepth?: number | undefined;
}

/** Flag name to the field it sets. */
const FLAGS = {
  'max-connections': 'maxConnections',
  'max-connections-per-client': 'maxConnectionsPerClient',
  'headers-timeout-ms': 'headersTimeoutMs',
  'request-timeout-ms': 'requestTimeoutMs',
  'idle-timeout-ms': 'idleTimeoutMs',
  'max-in-flight': 'maxInFlight',
  'max-listens': 'maxListens',
  'max-message-bytes': 'maxMessageBytes',
  'max-depth': 'maxDepth',
} as const satisfies Record<string, keyof TransportLimits>;

/** The `parseArgs` option specs of the limit flags. */
export const LIMIT_OPTIONS: Record<keyof typeof FLAGS, { type: 'string' }> = Object.fromEntries(
  Object.keys(FLAGS).map((flag) => [flag, { type: 'string' }]),
) as Record<keyof typeof FLAGS, { type: 'string' }>;

/** The help text of the limit flags. */
export const LIMITS_USAGE = `Limits (defaults and what each protects: docs/security.md):
  --max-connections N         connections at once (http, ws)
  --max-connections-per-client N
                              connections at once from one address (http, ws)
  --headers-timeout-ms MS     time to receive request headers (http)
  --request-timeout-ms MS     time to receive a whole request (http)
  --idle-timeout-ms MS        close idle connections after MS (http keep-alive, ws)
  --max-in-flight N           requests running at once per connection (ws, stdio)
  --max-listens N             listen streams per connection (ws, stdio)
  --max-message-bytes N       largest message: body, frame or line (all)
  --max-depth N               deepest nesting of a message (all)`;

/**
 * Reads the limit flags from `parseArgs` values; undefined when none was given. Positive integers only: anything
 * else throws the error `usage` makes of a one-line message.
 */
export function parseLimits(
  values: Record<string, string | boolean | undefined>,
  usage: (message: string) => Error,
): TransportLimits | undefined {
  const limits: Record<string, number> = {};
  for (const [flag, field] of Object.entries(FLAGS)) {
    const text = values[flag];
    if (typeof text !== 'string') continue;
    if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
      throw usage(`--${flag} must be a positive integer (got "${text}")`);
    }
    limits[field] = Number(text);
  }
  return Object.keys(limits).length === 0 ? undefined : limits;
}
