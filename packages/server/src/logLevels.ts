/** Syslog severities used by `notifications/message`, least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

/**
 * A log severity as MCP logging names them (the syslog levels), least to most severe: `debug`, `info`, `notice`,
 * `warning`, `error`, `critical`, `alert`, `emergency`.
 */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** True when `value` names a known level. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}

/** True when a message at `level` passes a request's `minimum` level. */
export function passesLogLevel(level: LogLevel, minimum: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(minimum);
}
