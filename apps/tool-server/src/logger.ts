/** Verbosity levels, quietest last. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
/** One of {@link LOG_LEVELS}. */
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** Diagnostics of the app. Always written to stderr: in stdio mode stdout carries protocol messages only. */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** A logger that writes lines at or above `level` to `write` (stderr by default). */
export function createLogger(
  level: LogLevelName,
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const at = (name: Exclude<LogLevelName, 'silent'>) => (message: string) => {
    if (LOG_LEVELS.indexOf(name) >= threshold) write(`[tool-server] ${name}: ${message}\n`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A one-line description of an unknown thrown value. */
export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
