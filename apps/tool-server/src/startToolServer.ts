import type { ExecutionOptions, McpServer } from '@mcp-tasks/server';
import type { CliOptions, StoreOption } from './cliOptions.js';
import { createToolServer } from './createToolServer.js';
import type { ExecutionCliOptions } from './executionCliOptions.js';
import { describeError, type Logger } from './logger.js';
import { openTaskStore } from './openTaskStore.js';
import { logRequests } from './requestLog.js';
import type { RunningTransport } from './runningTransport.js';
import { serveWithConsole } from './serveConsole.js';
import { serveHttp } from './serveHttp.js';
import { serveStdio } from './serveStdio.js';
import { serveWs } from './serveWs.js';

/** A started tool server. */
export interface StartedToolServer {
  readonly server: McpServer;
  /** The endpoint URL (http, ws); undefined for stdio. */
  readonly url: string | undefined;
  /** The task console's page (with `console: true`), on the endpoint's origin. */
  readonly consoleUrl?: string | undefined;
  /** Resolves when the transport ended on its own (stdio EOF). */
  readonly ended: Promise<void>;
  /**
   * Shuts down: stops the transport (aborting in-flight requests and listen streams), then closes the runtime,
   * which aborts running tasks and waits until each has recorded its outcome. Idempotent.
   */
  stop(): Promise<void>;
}

/** What {@link startToolServer} needs: the command line, where `console` may be left out. */
export type StartOptions = Omit<
  CliOptions,
  'logLevel' | 'console' | 'store' | 'instanceId' | 'leaseMs' | 'keepFinishedMs' | 'maxTasksPerPrincipal' | 'execution'
> & {
  /** @default role both, the runtime's parking and concurrency, a 10 s drain */
  readonly execution?: ExecutionCliOptions | undefined;
  readonly console?: boolean | undefined;
  /** @default memory */
  readonly store?: StoreOption | undefined;
  readonly instanceId?: string | undefined;
  readonly leaseMs?: number | undefined;
  /** @default 600000; null keeps finished tasks until their TTL */
  readonly keepFinishedMs?: number | null | undefined;
  /** @default 10000 */
  readonly maxTasksPerPrincipal?: number | undefined;
  /** Where the console bundle is (tests). @default apps/task-console/dist */
  readonly consoleRoot?: string | undefined;
};

/** Builds the server for `options.tools` and serves it on `options.transport`. */
export async function startToolServer(options: StartOptions, logger: Logger): Promise<StartedToolServer> {
  const tasks = await openTaskStore(options.store ?? { kind: 'memory' }, options.instanceId, logger, {
    maxTasksPerOwner: options.maxTasksPerPrincipal ?? 10_000,
    // The same bound for finished tasks kept, so a principal finishing tasks fast is never refused for it.
    maxFinishedTasksPerOwner: options.maxTasksPerPrincipal ?? 10_000,
  });
  const server = createToolServer({
    tools: options.tools,
    onError: (error) => logger.error(`unexpected error: ${describeError(error)}`),
    ...(tasks.store === undefined ? {} : { taskStore: tasks.store }),
    ...(options.instanceId === undefined ? {} : { workerId: options.instanceId }),
    onToolStop: ({ tool, taskId, reason }) =>
      logger.debug({ tool, taskId, reason }, 'tool stopped on its abort signal'),
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
    ...(options.keepFinishedMs === undefined ? {} : { keepFinishedMs: options.keepFinishedMs }),
    ...(options.maxTasksPerPrincipal === undefined ? {} : { maxTasksPerPrincipal: options.maxTasksPerPrincipal }),
    execution: executionOf(options.execution, logger),
  });
  const drainMs = options.execution?.drainMs ?? 10_000;
  let transport: RunningTransport & { readonly consoleUrl?: string };
  try {
    transport = await serve(server, options, logger);
  } catch (error) {
    await server.close();
    await tasks.stop();
    throw error;
  }
  let stopping: Promise<void> | undefined;
  return {
    server,
    url: transport.url,
    consoleUrl: transport.consoleUrl,
    ended: transport.ended,
    stop: () => {
      stopping ??= (async () => {
        try {
          await transport.close();
        } finally {
          // Durable tasks get `drainMs` to finish their step in flight, then go back to the store for another instance.
          await server.close({ graceMs: drainMs });
          await tasks.stop();
        }
      })();
      return stopping;
    },
  };
}

/** Starts the transport `options` ask for (with the console on the same port when asked). */
function serve(
  server: McpServer,
  options: StartOptions,
  logger: Logger,
): Promise<RunningTransport & { readonly consoleUrl?: string }> | RunningTransport {
  const { transport } = options;
  // A worker takes no client traffic: it only claims and runs durable tasks from the shared store.
  if (options.execution?.role === 'worker')
    return { url: undefined, ended: new Promise(() => undefined), close: async () => undefined };
  // Every transport serves the logged handler; HTTP also checks Mcp-Param-* headers against the server's tools, and
  // HTTP and WebSocket check tools' required scopes.
  const handle = logRequests(server.handle, logger);
  const endpoint = {
    handle,
    toolParamHeaders: server.toolParamHeaders,
    toolRequiredScopes: server.toolRequiredScopes,
  };
  if (transport === 'stdio') return serveStdio(handle, logger, options.limits);
  if (options.console === true) {
    // The console's endpoint knows only static tokens: never serve it in place of the resource server's checks.
    if (options.auth !== undefined) throw new Error('The console cannot be served with OAuth (--auth-issuer)');
    return serveWithConsole(endpoint, { ...options, transport }, logger);
  }
  return transport === 'ws' ? serveWs(endpoint, options, logger) : serveHttp(endpoint, options, logger);
}

/** The runtime's execution options from the command line; every execution event is logged (retries at warn). */
function executionOf(cli: ExecutionCliOptions | undefined, logger: Logger): ExecutionOptions {
  return {
    role: cli?.role ?? 'both',
    ...(cli?.parkAfterMs === undefined ? {} : { parkAfterMs: cli.parkAfterMs }),
    ...(cli?.concurrency === undefined ? {} : { concurrency: cli.concurrency }),
    onEvent: (event) => {
      if (event.type === 'retry')
        logger.warn({ ...event }, `step ${event.step} of task ${event.taskId} will be retried`);
      else logger.info({ ...event }, `task ${event.taskId}: ${event.type}`);
    },
  };
}
