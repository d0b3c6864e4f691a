import { isObject, type Vars } from './matchValue.js';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
/** Fields whose value is the server's own business: only their type is kept. */
const TYPED_FIELDS: Readonly<Record<string, string>> = {
  ttlMs: '<number>',
  pollIntervalMs: '<number>',
  // Optional free text: present or not, it is the server's choice.
  statusMessage: '<any>',
  requestState: '<string>',
  // A listen stream's notifications carry the listen request's id, which each client chooses.
  'io.modelcontextprotocol/subscriptionId': '<present>',
};

/**
 * Turns a recorded answer into the expectation stored in a transcript: captured values become `{{name}}`, times
 * `<iso8601>`, the server's identity (`serverInfo`) `<any>`, and fields whose value is each server's choice (TTLs,
 * poll intervals, error messages, opaque `requestState`) keep only their type; an optional `statusMessage` and an error's
 * `data` (but -32021's) may be anything. Everything else must come back equal.
 */
export function normalizeForPack(value: unknown, vars: Vars, parentKey = ''): unknown {
  if (typeof value === 'string') return placeholderFor(value, vars) ?? (ISO_8601.test(value) ? '<iso8601>' : value);
  if (Array.isArray(value)) return value.map((item) => normalizeForPack(item, vars));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const name = placeholderFor(key, vars) ?? key;
    if (key === 'io.modelcontextprotocol/serverInfo') out[name] = '<any>';
    else if (Object.hasOwn(TYPED_FIELDS, key) && item !== undefined) out[name] = TYPED_FIELDS[key];
    else if (key === 'message' && parentKey === 'error') out[name] = '<string>';
    // JSON-RPC 2.0: an error's `data` may be omitted and its value is defined by the server; only -32021's
    // `data.requiredCapabilities` is required by MCP, so it stays exact.
    else if (key === 'data' && parentKey === 'error' && value.code !== -32021) out[name] = '<any>';
    else out[name] = normalizeForPack(item, vars, key);
  }
  return out;
}

function placeholderFor(text: string, vars: Vars): string | undefined {
  for (const [name, captured] of vars) if (captured === text) return `{{${name}}}`;
  return undefined;
}
