const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const CODES: readonly number[] = Array.from(ALPHABET, (c) => c.charCodeAt(0));
/** 22 base64url characters, each from one random byte masked to 6 bits (uniform): 132 random bits. */
const ID_LENGTH = 22;
/** Random bytes are drawn in batches; `getRandomValues` accepts at most 65,536 bytes per call. */
const POOL_SIZE = ID_LENGTH * 512;

/** Fills `buffer` with cryptographically strong random bytes. */
export type RandomFill = (buffer: Uint8Array) => void;

const defaultFill: RandomFill = (buffer) => {
  globalThis.crypto.getRandomValues(buffer);
};

/**
 * Returns a generator of task ids: 132 bits from a cryptographic source, base64url (header-safe for
 * `Mcp-Name`), built in one `String.fromCharCode` call so the string is flat (a concatenated string would be a
 * chain of fragments that costs several times the memory of the record it belongs to).
 */
export function createTaskIdGenerator(fill: RandomFill = defaultFill): () => string {
  const pool = new Uint8Array(POOL_SIZE);
  const codes = new Array<number>(ID_LENGTH);
  let offset = POOL_SIZE;
  return () => {
    if (offset === POOL_SIZE) {
      fill(pool);
      offset = 0;
    }
    for (let i = 0; i < ID_LENGTH; i++) codes[i] = CODES[(pool[offset + i] as number) & 63] as number;
    offset += ID_LENGTH;
    return String.fromCharCode(...codes);
  };
}
