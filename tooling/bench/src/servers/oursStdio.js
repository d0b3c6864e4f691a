// Ours: McpServer + the stdio server transport, with one task that stays `working`.
import { serveStdio } from '@mcp-tasks/transport-stdio';
import { createRuntime, createWorkingTask } from './oursRuntime.js';
import { ready } from './serverKit.js';

const runtime = createRuntime();
const taskId = await createWorkingTask(runtime);
serveStdio(runtime.handle);
ready({ taskId });
