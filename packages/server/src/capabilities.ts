import { TASKS_EXTENSION_ID } from '@mcp-tasks/protocol';
import { isJsonObject, type JsonObject } from './jsonRpc.js';

/** `data.requiredCapabilities` for a request that needs the Tasks extension. */
export const TASKS_REQUIRED_CAPABILITIES: JsonObject = Object.freeze({
  extensions: Object.freeze({ [TASKS_EXTENSION_ID]: Object.freeze({}) }),
});

/**
 * True when this request's capabilities declare `extensions["io.modelcontextprotocol/tasks"]` as an object. A
 * legacy top-level `tasks` capability does not count.
 */
export function declaresTasks(clientCapabilities: JsonObject): boolean {
  const extensions = clientCapabilities.extensions;
  return isJsonObject(extensions) && isJsonObject(extensions[TASKS_EXTENSION_ID]);
}

/** The methods an input request may carry. */
export const INPUT_REQUEST_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const;

/**
 * The client capability an input request needs, or undefined when this request's capabilities cover it (a server
 * must not send input requests the client has not declared). URL-mode elicitation needs `elicitation.url`;
 * form mode needs `elicitation` declared without restricting it to URL mode only.
 */
export function missingCapabilityFor(
  request: { readonly method: string; readonly params?: JsonObject | undefined },
  clientCapabilities: JsonObject,
): JsonObject | undefined {
  switch (request.method) {
    case 'elicitation/create': {
      const elicitation = clientCapabilities.elicitation;
      if (request.params?.mode === 'url') {
        return isJsonObject(elicitation) && isJsonObject(elicitation.url) ? undefined : { elicitation: { url: {} } };
      }
      const formOk = isJsonObject(elicitation) && (isJsonObject(elicitation.form) || elicitation.url === undefined);
      return formOk ? undefined : { elicitation: { form: {} } };
    }
    case 'sampling/createMessage':
      return isJsonObject(clientCapabilities.sampling) ? undefined : { sampling: {} };
    case 'roots/list':
      return isJsonObject(clientCapabilities.roots) ? undefined : { roots: {} };
    default:
      return undefined;
  }
}

/** Shallow-merges several `requiredCapabilities` objects (one level deep, enough for the capability tree). */
export function mergeCapabilities(parts: readonly JsonObject[]): JsonObject {
  const merged: Record<string, unknown> = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      const previous = merged[key];
      merged[key] = isJsonObject(previous) && isJsonObject(value) ? { ...previous, ...value } : value;
    }
  }
  return merged;
}
