import type { MessageHandler } from '@mcp-tasks/protocol';
import { StdioServerTransport } from '@mcp-tasks/transport-stdio';
import type { TransportLimits } from './limitOptions.js';
import type { Logger } from './logger.js';
import type { RunningTransport } from './runningTransport.js';

/**
 * Serves newline-delimited JSON-RPC on this process's stdin/stdout. stdout carries protocol messages only; problems
 * go to the logger (stderr). `ended` resolves when the client closes stdin.
 */
export function serveStdio(handler: MessageHandler, logger: Logger, limits: TransportLimits = {}): RunningTransport {
  const transport = new StdioServerTransport(handler, {
    onError: (error) => logger.warn(`stdio: ${error.message}`),
    maxInFlight: limits.maxInFlight,
    maxListens: limits.maxListens,
    maxLineBytes: limits.maxMessageBytes,
    maxDepth: limits.maxDepth,
  });
  transport.start();
  return { url: undefined, ended: transport.closed, close: () => transport.close() };
}
