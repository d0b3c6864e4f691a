/**
 * Reports every tool handler that ended after its abort signal fired, with why it was aborted: the line an operator
 * (or a test) reads to know that a cancelled tool really stopped, instead of guessing from CPU use.
 */
import {
  isTaskAbort,
  type McpServer,
  type SchemaInput,
  type TaskAbortKind,
  type ToolDefinition,
} from '@mcp-tasks/server';

/** A tool handler that ended (returned or threw) after its signal aborted. */
export interface ToolStop {
  readonly tool: string;
  /** The task the tool ran for; undefined for a synchronous call. */
  readonly taskId: string | undefined;
  /** The runtime's abort reason (`cancelled`, `expired`, `shutdown`, `lease_lost`), or `request` when the caller went away. */
  readonly reason: TaskAbortKind | 'request';
}

/**
 * Makes `server` report, through `onStop`, each handler of a tool registered from now on that ends after its abort
 * signal fired. Call it before registering tools; tools registered earlier are not watched. `onStop` runs once per
 * stopped handler, after the handler settled and before the runtime records the outcome; it must not throw.
 */
export function reportToolStops(server: McpServer, onStop: (stop: ToolStop) => void): void {
  const register = server.tool.bind(server);
  server.tool = <S extends SchemaInput>(definition: ToolDefinition<S>) =>
    register({
      ...definition,
      handler: async (args, ctx) => {
        try {
          return await definition.handler(args, ctx);
        } finally {
          if (ctx.signal.aborted) {
            const reason = ctx.signal.reason;
            onStop({
              tool: definition.name,
              taskId: ctx.taskId,
              reason: isTaskAbort(reason) ? reason.kind : 'request',
            });
          }
        }
      },
    });
}
