/**
 * JSON text kept for values that never change, so a response carrying one is written without serializing it again.
 * Keyed weakly by the value: an entry lives exactly as long as its value, and a value from another copy of this
 * package is simply not found (its response is serialized as usual). `null`: shared, not written yet.
 */
const texts = new WeakMap<object, string | null>();

/**
 * Longest JSON text kept for a shared value: a larger value (a completed task's big tool result) would cost its size
 * again in memory for as long as it lives, and is rarely written more than once or twice.
 */
export const MAX_SHARED_JSON_TEXT = 4096;

/**
 * Marks `value` as never changing again, so {@link encodeMessage} keeps its JSON text the first time it writes a
 * JSON-RPC response whose `result` is `value`, and splices that text into every later such response instead of
 * serializing `value` again (a polled task's `tasks/get` result: about 1 µs of `JSON.stringify` per poll). Nothing
 * is serialized here, and text longer than {@link MAX_SHARED_JSON_TEXT} is not kept.
 *
 * Contract: `value` and everything it references must never change afterwards (deep-frozen, like a task-store
 * record). `value` itself is frozen here as a guard against a shallow change; nested values are the caller's word.
 * Returns `value`. Idempotent.
 */
export function shareJsonText<T extends object>(value: T): Readonly<T> {
  Object.freeze(value);
  if (!texts.has(value)) texts.set(value, null);
  return value;
}

/**
 * `JSON.stringify(message)` for a JSON-RPC message, the same text byte for byte. A result response
 * (`{ jsonrpc, id, result }`, nothing else) whose `result` went through {@link shareJsonText} is built around the
 * result's kept text (made on its first response) instead. Every server transport writes its messages with it.
 */
export function encodeMessage(message: unknown): string {
  const result = typeof message === 'object' && message !== null ? (message as { result?: unknown }).result : undefined;
  if (typeof result === 'object' && result !== null) {
    const kept = texts.get(result);
    if (kept !== undefined) {
      const { jsonrpc, id } = message as { readonly jsonrpc?: unknown; readonly id?: unknown };
      // Only the exact shape `jsonRpcResult` makes, in its key order, so the text is what JSON.stringify would give.
      if (
        jsonrpc === '2.0' &&
        (typeof id === 'string' || typeof id === 'number') &&
        isResultEnvelope(message as object)
      ) {
        const text = kept ?? keepText(result);
        if (text !== undefined) return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${text}}`;
      }
    }
  }
  return JSON.stringify(message);
}

/** Serializes a shared value for its first response; keeps the text when short enough, else forgets the value. */
function keepText(value: object): string | undefined {
  const text: string | undefined = JSON.stringify(value);
  if (text !== undefined && text.length <= MAX_SHARED_JSON_TEXT) texts.set(value, text);
  else texts.delete(value);
  return text;
}

/** True for a plain object whose own enumerable keys are exactly `jsonrpc`, `id`, `result`, in that order. */
function isResultEnvelope(message: object): boolean {
  if (Object.getPrototypeOf(message) !== Object.prototype) return false;
  const keys = Object.keys(message);
  return keys.length === 3 && keys[0] === 'jsonrpc' && keys[1] === 'id' && keys[2] === 'result';
}
