import { type ClientCapabilities, TASKS_EXTENSION_ID } from '@mcp-tasks/protocol';
import type { InputHandlers } from './inputResolver.js';

/**
 * Builds the `clientCapabilities` a request declares: one entry per registered input handler, the Tasks
 * extension when `tasks` is on, merged over `extra` (for settings such as `elicitation.url` or other extensions).
 * Declared values are always objects, never `true`.
 */
export function buildClientCapabilities(
  handlers: InputHandlers,
  tasks: boolean,
  extra: ClientCapabilities = {},
): ClientCapabilities {
  const capabilities: ClientCapabilities = { ...extra };
  if (handlers.elicitation) capabilities.elicitation = { form: {}, ...extra.elicitation };
  if (handlers.sampling) capabilities.sampling = { ...extra.sampling };
  if (handlers.roots) capabilities.roots = { ...extra.roots };
  if (tasks) capabilities.extensions = { ...extra.extensions, [TASKS_EXTENSION_ID]: {} };
  return capabilities;
}
