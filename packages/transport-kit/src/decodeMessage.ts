import { ErrorCode, isRecord, jsonRpcError, type TransportResponse } from '@mcp-tasks/protocol';

/**
 * Default {@link DecodeOptions.maxDepth}: 64 levels of objects and arrays, far beyond any MCP message (the deepest
 * schema-shaped payloads nest about a dozen levels) and far below what a recursive walk can survive.
 */
export const DEFAULT_MAX_DEPTH = 64;

/** Options of {@link decodeMessage}. */
export interface DecodeOptions {
  /** Deepest accepted nesting of objects and arrays; the message itself is level 1. @default 64 */
  readonly maxDepth?: number;
}

/** The outcome of {@link decodeMessage}: the parsed message, or the JSON-RPC error response to send instead. */
export type DecodedMessage =
  | {
      /** The text was one well-formed JSON value within the depth limit. */
      readonly ok: true;
      /** The parsed value, not yet checked against any message schema. */
      readonly message: unknown;
    }
  | {
      /** The text was refused. */
      readonly ok: false;
      /** The error response to send: `-32700` for text that is not JSON, `-32602` (with the request's id) when too deep. */
      readonly error: TransportResponse;
    };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes UTF-8 strictly: undefined when the bytes are not valid UTF-8 (no silent U+FFFD replacement, so a
 * corrupted message is refused rather than handed on altered). Every transport decodes its input with it.
 */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The response to bytes that are not valid UTF-8: `-32700`, without an id (nothing could be read). */
export const INVALID_UTF8_ERROR: TransportResponse = Object.freeze({
  jsonrpc: '2.0',
  error: { code: ErrorCode.ParseError, message: 'Parse error: the message is not valid UTF-8' },
});

/** The response to text that is not JSON: `-32700`, without an id. */
export const INVALID_JSON_ERROR: TransportResponse = Object.freeze({
  jsonrpc: '2.0',
  error: { code: ErrorCode.ParseError, message: 'Parse error: invalid JSON' },
});

/**
 * True when `value` nests objects/arrays deeper than `maxDepth`. Iterative (an explicit stack, no recursion), stops
 * at the first branch past the limit, so it is safe on any input `JSON.parse` produced.
 */
export function exceedsDepth(value: unknown, maxDepth: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const current = values.pop() as object;
    const depth = depths.pop() as number;
    if (depth > maxDepth) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** Longest text {@link mayNestDeeper} scans (most requests are far shorter). */
const SCAN_LIMIT = 4096;

/**
 * False when `text` cannot nest deeper than `maxDepth`: every level opens with a `{` or `[`, so a text with at most
 * `maxDepth` of them (counting those inside strings too, which only overcounts) is shallow enough. Scanning the
 * characters costs less than walking the parsed value, which allocates; the scan hops with `indexOf` (native and
 * vectorized) from bracket to bracket, about 6× cheaper than a `charCodeAt` loop over a 300-character request.
 */
function mayNestDeeper(text: string, maxDepth: number): boolean {
  if (text.length <= 2 * maxDepth) return false;
  // A long text is walked instead: the scan would cost more than the walk of a large, flat message.
  if (text.length > SCAN_LIMIT) return true;
  let opened = 0;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1)) if (++opened > maxDepth) return true;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1)) if (++opened > maxDepth) return true;
  return false;
}

/**
 * The shared ingress decoder of every transport: JSON text to a message, refusing what later walks (schema
 * validation, freezing, copying) could not handle safely. Unparseable text gets `-32700` without an id; a message
 * nested deeper than `maxDepth` gets `-32602` carrying the request's id when it has one, so the client can match
 * it. `JSON.parse` itself is not recursive, so no input reaches a recursive walk past this point.
 */
export function decodeMessage(text: string, options: DecodeOptions = {}): DecodedMessage {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { ok: false, error: INVALID_JSON_ERROR };
  }
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (mayNestDeeper(text, maxDepth) && exceedsDepth(message, maxDepth)) {
    const rawId = isRecord(message) ? message.id : undefined;
    const error = {
      code: ErrorCode.InvalidParams,
      message: `Invalid params: the message nests deeper than ${maxDepth} levels`,
      data: { maxDepth },
    };
    const id = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : undefined;
    return { ok: false, error: jsonRpcError(id, error) };
  }
  return { ok: true, message };
}
