import { type ClientCapabilities, hasLegacyTasks, type LegacyClientCapabilities } from '@mcp-tasks/protocol';
import type { InputHandlers } from '../inputResolver.js';

/**
 * The capabilities a 2025-era `initialize` declares: one entry per registered input handler (elicitation with
 * form mode, plus URL mode only when `extra` declares it; sampling; roots), merged over the 2025-era members of
 * `extra`. Elicitation is not declared to 2025-03-26 (which has none) and has no modes before 2025-11-25 (`{}`). With `tasks`, a 2025-11-25 session also
 * declares `tasks` (list, cancel, and task-augmented elicitation and sampling for the handlers there are).
 */
export function buildLegacyCapabilities(
  handlers: InputHandlers,
  version: string,
  extra: ClientCapabilities = {},
  tasks = false,
): LegacyClientCapabilities {
  const capabilities: LegacyClientCapabilities = {};
  if (extra.experimental !== undefined) capabilities.experimental = { ...extra.experimental };
  // Elicitation arrived with 2025-06-18.
  if (handlers.elicitation && version !== '2025-03-26') {
    capabilities.elicitation =
      version === '2025-11-25'
        ? { form: {}, ...(extra.elicitation?.url === undefined ? {} : { url: { ...extra.elicitation.url } }) }
        : {};
  }
  if (handlers.sampling) capabilities.sampling = { ...extra.sampling };
  // listChanged is not declared: the client never sends notifications/roots/list_changed.
  if (handlers.roots) capabilities.roots = {};
  if (tasks && hasLegacyTasks(version) && (handlers.elicitation || handlers.sampling)) {
    capabilities.tasks = {
      list: {},
      cancel: {},
      requests: {
        ...(handlers.elicitation ? { elicitation: { create: {} } } : {}),
        ...(handlers.sampling ? { sampling: { createMessage: {} } } : {}),
      },
    };
  }
  return capabilities;
}
