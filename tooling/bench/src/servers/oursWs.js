// Ours: McpServer + WebSocketServerTransport, with one task that stays `working`.
import { WebSocketServerTransport } from '@mcp-tasks/transport-ws';
import { createRuntime, createWorkingTask } from './oursRuntime.js';
import { port, ready } from './serverKit.js';

const runtime = createRuntime();
const taskId = await createWorkingTask(runtime);
const transport = await WebSocketServerTransport.listen(runtime.handle, { port: port() });
ready({ url: transport.url, taskId });
