// Ours: McpServer + createHttpHandler on plain node:http, with one task that stays `working`.
import { createServer } from 'node:http';
import { createHttpHandler } from '@mcp-tasks/transport-http';
import { createRuntime, createWorkingTask } from './oursRuntime.js';
import { port, ready, recordLatency } from './serverKit.js';

const timing = process.env.BENCH_TIMING === '1';
const runtime = createRuntime();
const taskId = await createWorkingTask(runtime);

/**
 * BENCH_TIMING=1 (latency case): records, for each `notifications/tasks` that reports a `sleep` task completed, the
 * delay from the tool's completion stamp to the moment the runtime hands the notification to the transport. This
 * splits completion → observation into the server's share and the transport + client's share.
 */
function timedHandle(message, context) {
  // Delegating getters, not a spread: the transport's context computes `signal` lazily from private state.
  const observed = {
    get principal() {
      return context.principal;
    },
    get signal() {
      return context.signal;
    },
    notify: (notification) => {
      const completedAt = notification.params?.result?.structuredContent?.completedAt;
      if (notification.method === 'notifications/tasks' && typeof completedAt === 'number') {
        recordLatency('notify', performance.timeOrigin + performance.now() - completedAt);
      }
      context.notify(notification);
    },
  };
  return runtime.handle(message, observed);
}

const endpoint = createHttpHandler(
  timing ? { handle: timedHandle, toolParamHeaders: runtime.toolParamHeaders } : runtime,
);
// BENCH_TIMING=1 (scale case): also time each request from arrival to the end of its response, by Mcp-Method.
const handler = timing
  ? (req, res) => {
      const started = performance.now();
      const method = req.headers['mcp-method'] ?? 'unknown';
      res.once('finish', () => recordLatency(method, performance.now() - started));
      endpoint(req, res);
    }
  : endpoint;
const server = createServer(handler);
server.keepAliveTimeout = 60_000;
server.listen(port(), '127.0.0.1', () => ready({ url: `http://127.0.0.1:${server.address().port}/mcp`, taskId }));
