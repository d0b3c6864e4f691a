/** fast-check generators of hostile and clumsy inbound traffic, and the check every answer must pass. */
import { META, TASKS_EXTENSION_ID } from '@mcp-tasks/protocol';
import fc from 'fast-check';

export const VALID_META = {
  [META.protocolVersion]: '2026-07-28',
  [META.clientCapabilities]: { elicitation: {}, extensions: { [TASKS_EXTENSION_ID]: {} } },
};

const METHODS = [
  'tools/call',
  'tools/list',
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
  'subscriptions/listen',
  'server/discover',
  'ping',
  'resources/read',
  'prompts/get',
  'completion/complete',
  'initialize',
  'notifications/cancelled',
];

/**
 * Nested arrays/objects up to 300 levels deep, built without recursion (deeper values would overflow
 * `JSON.stringify` in the test itself; {@link deepText} goes deeper as text).
 */
export const deepValue = fc.integer({ min: 1, max: 300 }).map((depth) => {
  let value: unknown = {};
  for (let i = 1; i < depth; i++) value = i % 2 === 0 ? [value] : { k: value };
  return value;
});

const params = fc.oneof(
  fc.jsonValue(),
  deepValue,
  fc.record(
    {
      name: fc.oneof(fc.constantFrom('echo', 'slow', 'confirm', 'missing'), fc.string()),
      arguments: fc.oneof(
        fc.jsonValue(),
        fc.record({ value: fc.string() }),
        fc.record({ ms: fc.integer({ min: -5, max: 50 }) }),
        deepValue,
      ),
      taskId: fc.string(),
      requestId: fc.oneof(fc.integer(), fc.string()),
      inputResponses: fc.oneof(fc.jsonValue(), deepValue),
      notifications: fc.jsonValue(),
      _meta: fc.oneof(fc.constant(VALID_META), fc.jsonValue()),
    },
    { requiredKeys: [] },
  ),
);

/** JSON-RPC-shaped messages: mostly plausible, every field sometimes wrong, missing or absurdly nested. */
export const messageArb = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('2.0'), fc.jsonValue()),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), fc.jsonValue()),
    method: fc.oneof(fc.constantFrom(...METHODS), fc.string()),
    params,
  },
  { requiredKeys: [] },
);

/** Raw inbound text/bytes: JSON of a message, arbitrary JSON, broken text, invalid UTF-8. */
export const payloadArb: fc.Arbitrary<Uint8Array> = fc.oneof(
  messageArb.map((m) => Buffer.from(JSON.stringify(m))),
  messageArb.map((m) => Buffer.from(JSON.stringify(m).slice(0, -1))),
  fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
  fc.string().map((s) => Buffer.from(s)),
  fc.uint8Array({ maxLength: 256 }).map((bytes) => Buffer.from(bytes)),
  deepValue.map((v) => Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: v }))),
  fc
    .integer({ min: 1, max: 200_000 })
    .map((depth) =>
      Buffer.from(
        `{"jsonrpc":"2.0","id":1,"method":"tasks/update","params":{"taskId":"t","inputResponses":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}}`,
      ),
    ),
);

/** What a server may say back: a JSON-RPC response or notification; an error never `-32603` for client input. */
export function checkOutbound(text: string): { readonly id?: unknown; readonly error?: { code: number } } {
  const message = JSON.parse(text) as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') throw new Error(`not JSON-RPC 2.0: ${text.slice(0, 200)}`);
  const error = message.error as { code?: unknown; message?: unknown } | undefined;
  if (error !== undefined) {
    if (!Number.isInteger(error.code) || typeof error.message !== 'string') {
      throw new Error(`malformed error: ${text.slice(0, 200)}`);
    }
    if (error.code === -32603) throw new Error(`internal error for client input: ${text.slice(0, 300)}`);
  } else if (!('result' in message) && typeof message.method !== 'string') {
    throw new Error(`neither response nor notification: ${text.slice(0, 200)}`);
  }
  return message as { id?: unknown; error?: { code: number } };
}
