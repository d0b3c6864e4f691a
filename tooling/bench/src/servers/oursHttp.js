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
let openListens = 0;
const notifiedCompletions = new Set();

/**
 * BENCH_TIMING=1 also counts `subscriptions/listen` streams: each listen request is recorded as `listen` (its count
 * is the number of listen requests), and each completion notification records how many streams were open then
 * (`openListenStreams`), and every `notifications/tasks` sent is counted as `listenEvent`.
 */
function countedListen(message, response) {
  if (message?.method !== 'subscriptions/listen') return response;
  recordLatency('listen', 0);
  openListens++;
  return Promise.resolve(response).finally(() => openListens--);
}

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
      // Every task state sent on a listen stream, the current states a new listen request opens with included.
      if (notification.method === 'notifications/tasks') recordLatency('listenEvent', 0);
      const completedAt = notification.params?.result?.structuredContent?.completedAt;
      // Once per task: a later listen request opens with each task's current state, which is no new completion.
      if (
        notification.method === 'notifications/tasks' &&
        typeof completedAt === 'number' &&
        !notifiedCompletions.has(notification.params.taskId)
      ) {
        notifiedCompletions.add(notification.params.taskId);
        recordLatency('notify', performance.timeOrigin + performance.now() - completedAt);
        recordLatency('openListenStreams', openListens);
      }
      context.notify(notification);
    },
  };
  return countedListen(message, runtime.handle(message, observed));
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
// BENCH_TIMING=1: counts the TCP connections clients open (`connection`), to tell a pooled client from one that
// connects again and again.
if (timing) server.on('connection', () => recordLatency('connection', 0));
server.listen(port(), '127.0.0.1', () => ready({ url: `http://127.0.0.1:${server.address().port}/mcp`, taskId }));
