import type { CreateTaskResult } from '@mcp-tasks/protocol';
import type { RawResult } from './rpcClient.js';

/**
 * What `McpClient.request` resolves with: the method's `complete` result, or, when the server turned the request
 * into a task (with the Tasks extension only `tools/call` may), that task's `CreateTaskResult`
 * (`resultType: "task"`). The caller then owns the task: follow it with `resumeTask`, `getTask` or `cancelTask`;
 * `request` neither polls nor journals it. Tell the two apart with {@link isTaskHandle}.
 */
export type RequestResult = RawResult | CreateTaskResult;

/** True when `result` is a task handle (`resultType: "task"`) rather than a method's `complete` result. */
export function isTaskHandle(result: RequestResult): result is CreateTaskResult {
  return result.resultType === 'task';
}
