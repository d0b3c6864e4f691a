import type { ClientCapabilities, LegacyClientCapabilities } from '@mcp-tasks/protocol';
import type { InputHandlers } from './inputResolver.js';

/**
 * The capabilities a 2025-era `initialize` declares: one entry per registered input handler (elicitation with
 * form mode, plus URL mode only when `extra` declares it; sampling; roots), merged over the 2025-era members of
 * `extra`. Never `tasks`: this client does not act as a task receiver for server requests, and declaring it would
 * promise task-augmented elicitation and sampling. Before 2025-11-25 elicitation has no modes, so it is `{}`.
 */
export function buildLegacyCapabilities(
  handlers: InputHandlers,
  version: string,
  extra: ClientCapabilities = {},
): LegacyClientCapabilities {
  const capabilities: LegacyClientCapabilities = {};
  if (extra.experimental !== undefined) capabilities.experimental = { ...extra.experimental };
  if (handlers.elicitation) {
    capabilities.elicitation =
      version === '2025-11-25'
        ? { form: {}, ...(extra.elicitation?.url === undefined ? {} : { url: { ...extra.elicitation.url } }) }
        : {};
  }
  if (handlers.sampling) capabilities.sampling = { ...extra.sampling };
  // listChanged is not declared: the client never sends notifications/roots/list_changed.
  if (handlers.roots) capabilities.roots = {};
  return capabilities;
}
