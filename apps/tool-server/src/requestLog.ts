/**
 * Wraps the runtime's `MessageHandler` so each request is logged at debug as one structured line: method, task id
 * (when the request names one or the result creates one), principal, duration and outcome (`ok`, or the JSON-RPC
 * error code). Notifications are logged without a duration.
 */
import type { MessageHandler } from '@mcp-tasks/protocol';
import { isRecord } from '@mcp-tasks/protocol';
import { spanContextFromMeta } from '@mcp-tasks/server';
import type { Logger } from './logger.js';

/** `handler` with a debug log line per message. */
export function logRequests(handler: MessageHandler, logger: Logger): MessageHandler {
  return async (message, context) => {
    const started = performance.now();
    const method = isRecord(message) && typeof message.method === 'string' ? message.method : undefined;
    const params = isRecord(message) && isRecord(message.params) ? message.params : undefined;
    const requestTaskId = typeof params?.taskId === 'string' ? params.taskId : undefined;
    // The caller's span (`_meta.traceparent`), so the line joins the caller's trace.
    const caller = spanContextFromMeta(isRecord(params?._meta) ? params._meta : undefined);
    const fields = {
      method,
      principal: context.principal ?? null,
      ...(caller === undefined ? {} : { trace_id: caller.traceId, span_id: caller.spanId }),
    };
    try {
      const response = await handler(message, context);
      const result =
        response !== undefined && 'result' in response && isRecord(response.result) ? response.result : undefined;
      const created = createdTaskId(result);
      const error =
        response !== undefined && 'error' in response && isRecord(response.error) ? response.error : undefined;
      logger.debug(
        {
          ...fields,
          taskId: requestTaskId ?? created ?? null,
          durationMs: Math.round((performance.now() - started) * 1000) / 1000,
          outcome: response === undefined ? 'notification' : error !== undefined ? `error ${String(error.code)}` : 'ok',
        },
        'request',
      );
      return response;
    } catch (error) {
      logger.debug({ ...fields, taskId: requestTaskId ?? null, outcome: 'threw' }, 'request');
      throw error;
    }
  };
}

/**
 * The id of the task a result created: a 2026-07-28 `CreateTaskResult` is the task's flat state (`resultType:
 * "task"`, `taskId` at the top), a 2025-11-25 one nests it under `task`.
 */
function createdTaskId(result: Record<string, unknown> | undefined): string | undefined {
  if (result === undefined) return undefined;
  if (result.resultType === 'task' && typeof result.taskId === 'string') return result.taskId;
  return isRecord(result.task) && typeof result.task.taskId === 'string' ? result.task.taskId : undefined;
}
