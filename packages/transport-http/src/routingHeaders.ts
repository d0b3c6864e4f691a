/**
 * Which body field each method mirrors into `Mcp-Name` (SEP-2243; the Tasks extension adds `tasks/get`,
 * `tasks/update` and `tasks/cancel`). `tasks/result` and `tasks/list` are deliberately absent:
 * they are removed methods and must reach the runtime to be answered with -32601.
 */
const MCP_NAME_FIELDS: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** The `params` field a request of `method` mirrors into `Mcp-Name`, or undefined when it carries no `Mcp-Name`. */
export function mcpNameField(method: string): string | undefined {
  return Object.hasOwn(MCP_NAME_FIELDS, method) ? MCP_NAME_FIELDS[method] : undefined;
}
