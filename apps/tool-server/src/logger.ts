/**
 * The server's structured log: pino, one JSON object per line on stderr (in stdio mode stdout carries protocol
 * messages only). pino because it is the fastest well-kept structured logger for Node, with levels, child
 * loggers and redaction built in; we keep only the level names of our CLI.
 */
import { trace } from '@opentelemetry/api';
import pino from 'pino';

/** Verbosity levels, quietest last. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
/** One of {@link LOG_LEVELS}. */
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** What the app logs through: a message, optionally with structured fields first (pino's calling convention). */
export interface Logger {
  debug(fields: Record<string, unknown>, message: string): void;
  debug(message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  info(message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * A logger at `level` writing JSON lines to `destination` (stderr by default, synchronously, so the last lines
 * before an exit are not lost).
 */
export function createLogger(
  level: LogLevelName,
  destination: pino.DestinationStream = pino.destination({ fd: 2, sync: true }),
): Logger {
  return pino({ name: 'tool-server', level, base: { pid: process.pid }, mixin: traceFields }, destination);
}

/**
 * The ids of the active span as log fields (`trace_id`, `span_id`), so a line joins its trace: with `--otel`, a
 * tool's work runs in its task's span. None outside a span (and always none without an SDK).
 */
export function traceFields(): { trace_id?: string; span_id?: string } {
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (spanContext === undefined) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}

/** A one-line description of an unknown thrown value. */
export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
