import type { McpServer } from '@mcp-tasks/server';
import type { CliOptions } from './cliOptions.js';
import { createToolServer } from './createToolServer.js';
import { describeError, type Logger } from './logger.js';
import { logRequests } from './requestLog.js';
import type { RunningTransport } from './runningTransport.js';
import { serveHttp } from './serveHttp.js';
import { serveStdio } from './serveStdio.js';
import { serveWs } from './serveWs.js';

/** A started tool server. */
export interface StartedToolServer {
  readonly server: McpServer;
  /** The endpoint URL (http, ws); undefined for stdio. */
  readonly url: string | undefined;
  /** Resolves when the transport ended on its own (stdio EOF). */
  readonly ended: Promise<void>;
  /**
   * Shuts down: stops the transport (aborting in-flight requests and listen streams), then closes the runtime,
   * which aborts running tasks and waits until each has recorded its outcome. Idempotent.
   */
  stop(): Promise<void>;
}

/** Builds the server for `options.tools` and serves it on `options.transport`. */
export async function startToolServer(
  options: Omit<CliOptions, 'logLevel'>,
  logger: Logger,
): Promise<StartedToolServer> {
  const server = createToolServer({
    tools: options.tools,
    onError: (error) => logger.error(`unexpected error: ${describeError(error)}`),
  });
  const handle = logRequests(server.handle, logger);
  let transport: RunningTransport;
  try {
    transport =
      options.transport === 'stdio'
        ? serveStdio(handle, logger)
        : await (options.transport === 'ws'
            ? serveWs(handle, options, logger)
            : serveHttp({ handle, toolParamHeaders: server.toolParamHeaders }, options, logger));
  } catch (error) {
    await server.close();
    throw error;
  }
  let stopping: Promise<void> | undefined;
  return {
    server,
    url: transport.url,
    ended: transport.ended,
    stop: () => {
      stopping ??= (async () => {
        try {
          await transport.close();
        } finally {
          await server.close();
        }
      })();
      return stopping;
    },
  };
}
