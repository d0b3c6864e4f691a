import { type ExecutionOptions, McpServer } from '@mcp-tasks/server';
import type { TaskStore } from '@mcp-tasks/task-store';
import type { ToolSet } from './cliOptions.js';
import { registerMrtrConformanceTools } from './conformanceMrtrTools.js';
import { registerConformancePrompts } from './conformancePrompts.js';
import { registerConformanceResources } from './conformanceResources.js';
import { registerSessionConformanceTools } from './conformanceSessionTools.js';
import { registerTaskConformanceTools, registerTriggerTools } from './conformanceTaskTools.js';
import { registerBasicConformanceTools, registerJsonSchemaTool } from './conformanceTools.js';
import { registerDemoTools } from './demoTools.js';
import { reportToolStops, type ToolStop } from './toolStops.js';
import { VERSION } from './version.js';

/** Options of {@link createToolServer}. */
export interface ToolServerOptions {
  /** @default 'all' */
  readonly tools?: ToolSet;
  /** Receives unexpected exceptions from the runtime. @default console.error */
  readonly onError?: (error: unknown) => void;
  /** Where tasks live; closed with the server. @default a new in-memory store */
  readonly taskStore?: TaskStore;
  /** This instance's worker id. @default unique per process */
  readonly workerId?: string;
  /** Told of every tool handler that ended after its abort signal fired (cancel, expiry, shutdown, lost lease). */
  readonly onToolStop?: (stop: ToolStop) => void;
  /** How long a running task's lease lasts (renewed by this instance while the tool runs). @default 30_000 */
  readonly leaseMs?: number;
  /** How long a finished task stays at most; null keeps it until its TTL. @default 600_000 */
  readonly keepFinishedMs?: number | null;
  /** Most tasks one principal may hold in the default in-memory store (a given `taskStore` has its own). @default 10000 */
  readonly maxTasksPerPrincipal?: number;
  /** Durable execution of the durable demo tools (role, parking, worker, events). @default the runtime's */
  readonly execution?: ExecutionOptions;
}

/**
 * Builds the sample server with the chosen tool set. `conformance` registers exactly the fixture of
 * CONFORMANCE.md section 6 in its `tools/list` order; `all` registers the fixture first (its first tool is
 * callable with `{}`), then the demo tools. The caller owns the server and must `close()` it.
 */
export function createToolServer(options: ToolServerOptions = {}): McpServer {
  const tools = options.tools ?? 'all';
  const server = new McpServer({
    serverInfo: { name: 'mcp-tasks-tool-server', version: VERSION },
    instructions: 'Sample long-running tool server of mcp-tasks: call the demo tools as tasks and poll tasks/get.',
    tasks: {
      ttlMs: 3_600_000,
      pollIntervalMs: 250,
      ...(options.workerId === undefined ? {} : { workerId: options.workerId }),
      ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
      ...(options.keepFinishedMs === undefined ? {} : { keepFinishedMs: options.keepFinishedMs }),
      ...(options.maxTasksPerPrincipal === undefined
        ? {}
        : {
            maxTasksPerPrincipal: options.maxTasksPerPrincipal,
            maxFinishedTasksPerPrincipal: options.maxTasksPerPrincipal,
          }),
    },
    ...(options.taskStore === undefined ? {} : { taskStore: options.taskStore, closeTaskStore: true }),
    ...(options.execution === undefined ? {} : { execution: options.execution }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
  if (options.onToolStop !== undefined) reportToolStops(server, options.onToolStop);
  if (tools !== 'demo') {
    registerBasicConformanceTools(server);
    registerMrtrConformanceTools(server);
    registerJsonSchemaTool(server);
    registerSessionConformanceTools(server);
    registerTaskConformanceTools(server);
    registerTriggerTools(server);
    registerConformancePrompts(server);
    registerConformanceResources(server);
  }
  if (tools !== 'conformance') registerDemoTools(server);
  return server;
}
