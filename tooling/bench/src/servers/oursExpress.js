// Ours through express 5: the same express app as the baseline (express.json()), with our handler at /mcp.
import { createHttpHandler } from '@mcp-tasks/transport-http';
import express from 'express';
import { createRuntime, createWorkingTask } from './oursRuntime.js';
import { port, ready } from './serverKit.js';

const runtime = createRuntime();
const taskId = await createWorkingTask(runtime);
const app = express();
app.use(express.json());
app.post('/mcp', createHttpHandler(runtime));
const server = app.listen(port(), '127.0.0.1', () =>
  ready({ url: `http://127.0.0.1:${server.address().port}/mcp`, taskId }),
);
server.keepAliveTimeout = 60_000;
