#!/usr/bin/env node
/**
 * mcp-tasks-tool-server: the sample long-running tool server. See USAGE in cliOptions.ts.
 *
 * Exit codes: 0 after a clean shutdown (SIGINT, SIGTERM, or stdin EOF in stdio mode); 1 when the server cannot
 * start or shut down cleanly; 2 for a usage error (one readable line on stderr).
 */
import { parseCliOptions, USAGE, UsageError } from './cliOptions.js';
import { createLogger, describeError, type Logger } from './logger.js';
import { type StartedToolServer, startToolServer } from './startToolServer.js';
import type { StartedTelemetry } from './telemetry.js';
import { VERSION } from './version.js';

/** A shutdown that hangs (e.g. a tool ignoring its abort signal) must not keep the process alive forever. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

/** Stops the server, then exits once stdout has drained (in stdio mode it carries the last responses). */
async function shutdown(started: StartedToolServer, reason: string, logger: Logger): Promise<void> {
  logger.info(`shutting down (${reason})`);
  const timer = setTimeout(() => {
    logger.error('shutdown timed out; exiting');
    process.exit(1);
  }, SHUTDOWN_TIMEOUT_MS);
  timer.unref();
  let code = 0;
  try {
    await started.stop();
  } catch (error) {
    logger.error(`shutdown failed: ${describeError(error)}`);
    code = 1;
  }
  clearTimeout(timer);
  logger.debug('stopped');
  process.stdout.write('', () => process.exit(code));
}

async function main(argv: readonly string[]): Promise<number | undefined> {
  let parsed: ReturnType<typeof parseCliOptions>;
  try {
    parsed = parseCliOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`mcp-tasks-tool-server: ${error.message} (see --help)\n`);
    return 2;
  }
  if (parsed === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (parsed === 'version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const logger = createLogger(parsed.logLevel);

  // Signals are handled from the start, so one that arrives while the server starts still shuts it down cleanly.
  let stopReason: string | undefined;
  let started: StartedToolServer | undefined;
  const requestStop = (reason: string) => {
    if (stopReason !== undefined) return;
    stopReason = reason;
    if (started !== undefined) void shutdown(started, reason, logger);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    // A second signal means "now": skip the graceful path.
    if (stopReason !== undefined && signal !== 'SIGPIPE') process.exit(1);
    requestStop(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let telemetry: StartedTelemetry | undefined;
  try {
    // Before the server: it uses the providers registered globally when it is made.
    if (parsed.otel === true) telemetry = (await import('./telemetry.js')).startTelemetry(parsed.instanceId);
    const server = await startToolServer(parsed, logger);
    started = telemetry === undefined ? server : withTelemetryShutdown(server, telemetry);
  } catch (error) {
    await telemetry?.shutdown();
    process.stderr.write(`mcp-tasks-tool-server: cannot start: ${error instanceof Error ? error.message : error}\n`);
    return 1;
  }
  // The ready line is printed whatever the log level: scripts wait for it to learn the port.
  if (started.url !== undefined) {
    process.stderr.write(`mcp-tasks-tool-server: listening on ${started.url} (tools: ${parsed.tools})\n`);
    if (started.consoleUrl !== undefined) {
      process.stderr.write(`mcp-tasks-tool-server: task console at ${started.consoleUrl}\n`);
    }
  } else if (parsed.execution.role === 'worker') {
    process.stderr.write(`mcp-tasks-tool-server: worker running durable tasks, no port (tools: ${parsed.tools})\n`);
  } else {
    logger.info(`serving on stdio (tools: ${parsed.tools})`);
  }
  if (stopReason !== undefined) void shutdown(started, stopReason, logger);
  void started.ended.then(() => requestStop('stdin closed'));
  return undefined;
}

/** `server`, whose stop also exports the last spans and metrics once the server closed. */
function withTelemetryShutdown(server: StartedToolServer, telemetry: StartedTelemetry): StartedToolServer {
  return {
    ...server,
    stop: async () => {
      try {
        await server.stop();
      } finally {
        await telemetry.shutdown();
      }
    },
  };
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`mcp-tasks-tool-server: ${describeError(error)}\n`);
    process.exitCode = 1;
  },
);
