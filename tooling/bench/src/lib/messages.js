import { LATEST_PROTOCOL_VERSION, META, TASKS_EXTENSION_ID } from '@mcp-tasks/protocol';

/** Client capabilities declaring the Tasks extension. */
export const TASKS_CAPS = { extensions: { [TASKS_EXTENSION_ID]: {} } };

/** The per-request `_meta` every 2026-07-28 request carries. */
export function requestMeta(caps = TASKS_CAPS) {
  return {
    [META.protocolVersion]: LATEST_PROTOCOL_VERSION,
    [META.clientInfo]: { name: 'mcp-tasks-bench', version: '0.0.0' },
    [META.clientCapabilities]: caps,
  };
}

/** A `tasks/get` request for `taskId`. */
export function tasksGet(taskId, id = 1) {
  return { jsonrpc: '2.0', id, method: 'tasks/get', params: { taskId, _meta: requestMeta() } };
}

/** A synchronous `tools/call` of `greet` (no Tasks extension declared, so it never becomes a task). */
export function greetCall(id = 1, name = 'bench') {
  return {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'greet', arguments: { name }, _meta: requestMeta({}) },
  };
}

/** A `tools/call` that creates a task (the Tasks extension declared). */
export function taskCall(tool, args = {}, id = 1) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args, _meta: requestMeta() } };
}

/** The HTTP headers a 2026-07-28 client sends with `message` (SEP-2243 routing headers included). */
export function httpHeaders(message) {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
    'mcp-method': message.method,
  };
  const name = message.params?.taskId ?? message.params?.name;
  if (typeof name === 'string') headers['mcp-name'] = name;
  return headers;
}
