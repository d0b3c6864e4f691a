/**
 * The client half of multi round-trip requests (MRTR): answer an `input_required` result and retry.
 */
import type { CreateTaskResult } from '@mcp-tasks/protocol';
import { classifyResult } from './classifyResult.js';
import { InvalidResponseError } from './errors.js';
import { type InputHandlers, resolveInputRequests } from './inputResolver.js';
import type { RawResult } from './rpcClient.js';

/** The end of an MRTR exchange: a `complete` result or a task. */
export type RoundsOutcome =
  | { readonly kind: 'complete'; readonly result: RawResult; readonly retried: boolean }
  | { readonly kind: 'task'; readonly task: CreateTaskResult; readonly retried: boolean };

/** Options of {@link runInputRounds}. */
export interface InputRoundsOptions {
  /** Sends one request (a new JSON-RPC id each time) and resolves with its raw result. */
  readonly send: (params: Readonly<Record<string, unknown>>) => Promise<RawResult>;
  readonly handlers: InputHandlers;
  /** Whether the request declared the Tasks extension. */
  readonly acceptsTask: boolean;
  /** Retries allowed before giving up with `InvalidResponseError`. */
  readonly maxRounds: number;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Sends `method` with `params` and, while the server answers `input_required`, answers every input request with
 * the handlers and sends the request again with `inputResponses` and the byte-identical `requestState` (each
 * omitted when the server sent none, so a retry after a bare `requestState` carries only that). `retried` tells
 * the caller the result depends on inputs outside the cache key, so it must not be cached. A task is accepted
 * after any number of rounds; its input requests are a separate key space handled by the task driver.
 */
export async function runInputRounds(
  method: string,
  params: Readonly<Record<string, unknown>>,
  options: InputRoundsOptions,
): Promise<RoundsOutcome> {
  // Made only for a round that asks something: most calls never do, and an unused signal cost ~2.6 µs per call.
  let signal = options.signal;
  let retry: Readonly<Record<string, unknown>> = {};
  for (let round = 0; round <= options.maxRounds; round++) {
    const classified = classifyResult(method, await options.send({ ...params, ...retry }), options.acceptsTask);
    if (classified.kind !== 'input_required') return { ...classified, retried: round > 0 };
    const { inputRequests, requestState } = classified.result;
    let inputResponses: Awaited<ReturnType<typeof resolveInputRequests>> | undefined;
    if (inputRequests !== undefined) {
      signal ??= new AbortController().signal;
      inputResponses = await resolveInputRequests(inputRequests, options.handlers, signal, { method, params });
    }
    retry = {
      ...(inputResponses === undefined ? {} : { inputResponses }),
      ...(requestState === undefined ? {} : { requestState }),
    };
  }
  throw new InvalidResponseError(method, `still input_required after ${options.maxRounds} retries`);
}
