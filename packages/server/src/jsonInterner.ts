import { deepFreeze } from '@mcp-tasks/task-store/transitions';
import type { JsonObject } from './jsonRpc.js';

/** Values whose JSON text is longer than this are not shared (they are rarely repeated, and would bloat the cache). */
const MAX_TEXT = 4096;

/**
 * Deep-frozen copies of JSON objects, one per distinct value: a task's tool context keeps its request's `_meta` for
 * as long as the task waits, and the tasks of one client all carry the same one (about 300 bytes each). At most
 * `max` distinct values are kept, the oldest dropped first, each at most 4 KiB of JSON text.
 */
export class JsonInterner {
  readonly #max: number;
  readonly #byText = new Map<string, JsonObject>();

  constructor(max = 256) {
    this.#max = max;
  }

  /** The shared deep-frozen copy of `value`, or `value` itself when it is too large or not plain JSON. */
  intern(value: JsonObject): JsonObject {
    let text: string;
    try {
      text = JSON.stringify(value);
    } catch {
      return value;
    }
    const known = this.#byText.get(text);
    if (known !== undefined) return known;
    if (text.length > MAX_TEXT) return value;
    const copy = deepFreeze(JSON.parse(text) as JsonObject);
    if (this.#byText.size >= this.#max) {
      const oldest = this.#byText.keys().next();
      if (oldest.done !== true) this.#byText.delete(oldest.value);
    }
    this.#byText.set(text, copy);
    return copy;
  }
}
