import { ErrorCode, type InputRequest, type InputResponse, ProtocolError } from '@mcp-tasks/protocol';
import { isJsonObject, type JsonObject } from '../jsonRpc.js';
import { ResourceNotFoundError } from '../resourceRegistry.js';
import { askPeer, PeerRequestError, type PeerSend } from './legacyPeerInput.js';

/** `-32002`: the 2025-era code for a resource that does not exist. */
export const LEGACY_RESOURCE_NOT_FOUND = -32002;

/** Result members only the 2026-07-28 wire has. */
const MODERN_ONLY_KEYS = ['resultType', 'ttlMs', 'cacheScope'] as const;

/**
 * A route's result in its 2025-era shape: without `resultType`, `ttlMs` and `cacheScope` (an empty result stays
 * exactly `{}`). The result is never modified; one that has none of those members is returned as it is.
 */
export function toLegacyResult(result: JsonObject): JsonObject {
  if (!MODERN_ONLY_KEYS.some((key) => key in result)) return result;
  // Copied key by key rather than spread and then `delete`d: deleting turns the copy into a slow dictionary-mode
  // object, which every response then serializes.
  const shaped: Record<string, unknown> = {};
  for (const key of Object.keys(result)) {
    if (!(MODERN_ONLY_KEYS as readonly string[]).includes(key)) shaped[key] = result[key];
  }
  return shaped;
}

/** An error in its 2025-era form: an unknown resource is `-32002` (with `data.uri`); anything else is unchanged. */
export function toLegacyError(error: unknown): unknown {
  if (error instanceof ResourceNotFoundError) {
    return new ProtocolError(LEGACY_RESOURCE_NOT_FOUND, error.message, error.data);
  }
  return error;
}

/** Most input rounds one 2025-era request may need before the server gives up. */
const MAX_INPUT_ROUNDS = 16;

/**
 * Carries on a request whose first run answered `input_required` (MRTR), which a 2025-era client cannot read: each
 * round's input requests are sent to the client as real requests (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`) and the request runs again with the answers and the signed `requestState`, until it completes.
 * `first` is that first run's answer (a final answer is returned as it is). A client error or malformed answer fails
 * the request with `-32603` naming it.
 */
export async function serveWithPeerInput(
  run: (params: JsonObject) => JsonObject | Promise<JsonObject>,
  params: JsonObject,
  first: JsonObject,
  send: PeerSend | undefined,
  signal: () => AbortSignal,
): Promise<JsonObject> {
  let result = first;
  for (let round = 0; ; round += 1) {
    if (result.resultType !== 'input_required') return result;
    if (send === undefined) {
      throw new ProtocolError(
        ErrorCode.InternalError,
        'This request needs client input, but the session has no way back',
      );
    }
    const requests = isJsonObject(result.inputRequests) ? result.inputRequests : {};
    const answers: Record<string, InputResponse> = {};
    for (const [key, request] of Object.entries(requests)) {
      // Issued by toInputRequiredResult, which checked each method and the client's capabilities.
      answers[key] = await askClient(send, request as InputRequest, signal());
    }
    if (round === MAX_INPUT_ROUNDS) break;
    result = await run({ ...params, inputResponses: answers, requestState: result.requestState });
  }
  throw new ProtocolError(ErrorCode.InternalError, `The request still needed input after ${MAX_INPUT_ROUNDS} rounds`);
}

async function askClient(send: PeerSend, request: InputRequest, signal: AbortSignal): Promise<InputResponse> {
  try {
    return await askPeer(send, request, signal);
  } catch (error) {
    if (error instanceof PeerRequestError) throw new ProtocolError(ErrorCode.InternalError, error.message);
    throw error;
  }
}
