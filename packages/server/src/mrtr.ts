import type { InputRequest, InputRequiredResult } from '@mcp-tasks/protocol';
import { INPUT_REQUEST_METHODS, mergeCapabilities, missingCapabilityFor } from './capabilities.js';
import { invalidParams, missingCapability } from './errors.js';
import { checkInputAnswers } from './inputAnswers.js';
import { isJsonObject, type JsonObject } from './jsonRpc.js';
import type { RequestStateBinding, RequestStateSigner } from './requestState.js';

/**
 * What a handler returns to answer `input_required` (MRTR): the requests the client must fulfil and an optional
 * state the runtime signs into `requestState`. Create it with `ctx.inputRequired(...)`.
 */
export class InputRequired {
  /** The requests to send, by key; the answers come back under the same keys in the retried request. */
  readonly inputRequests: Readonly<Record<string, InputRequest>> | undefined;
  /** State to carry to the retry, signed into `requestState` (the client cannot alter it); `undefined` for none. */
  readonly state: unknown;

  /** Holds `inputRequests` and `state` as given; handlers usually build it with `ctx.inputRequired(...)`. */
  constructor(options: { readonly inputRequests?: Readonly<Record<string, InputRequest>>; readonly state?: unknown }) {
    this.inputRequests = options.inputRequests;
    this.state = options.state;
  }
}

/** The MRTR fields of a retried request, validated. */
export interface MrtrParams {
  /** Every value is an object; `{}` on a first round. Unknown keys are kept: the handler ignores what it does not need. */
  readonly inputResponses: Readonly<Record<string, JsonObject>>;
  readonly requestState?: string;
}

/** The `inputResponses` of a first round, one frozen object for every request (a task's context keeps it). */
const NO_RESPONSES: Readonly<Record<string, JsonObject>> = Object.freeze({});

/**
 * Reads `inputResponses` and `requestState` from the top level of `params`. A non-object `inputResponses`
 * (including null), a non-object response value or a non-string `requestState` is `-32602`.
 */
export function readMrtrParams(params: JsonObject): MrtrParams {
  const { inputResponses, requestState } = params;
  if (requestState !== undefined && typeof requestState !== 'string') {
    throw invalidParams('Invalid params: requestState must be a string');
  }
  if (inputResponses === undefined)
    return requestState === undefined
      ? { inputResponses: NO_RESPONSES }
      : { inputResponses: NO_RESPONSES, requestState };
  if (!isJsonObject(inputResponses)) throw invalidParams('Invalid params: inputResponses must be an object');
  for (const [key, value] of Object.entries(inputResponses)) {
    if (!isJsonObject(value)) throw invalidParams(`Invalid params: inputResponses["${key}"] must be an object`);
  }
  const responses = inputResponses as Readonly<Record<string, JsonObject>>;
  return requestState === undefined ? { inputResponses: responses } : { inputResponses: responses, requestState };
}

/**
 * Verifies a retry's `requestState` (if any) and returns the handler state it carries. The answers to the input
 * requests that state records must match their result schemas (`-32602` naming the key); other keys are left to
 * the handler, which ignores what it does not need. A retry without `requestState` cannot be checked beyond
 * {@link readMrtrParams}: a stateless server knows what it asked only through the state.
 */
export async function readRequestState(
  signer: RequestStateSigner,
  binding: RequestStateBinding,
  mrtr: MrtrParams,
): Promise<unknown> {
  if (mrtr.requestState === undefined) return undefined;
  const { state, asked } = await signer.open(binding, mrtr.requestState);
  checkInputAnswers(mrtr.inputResponses, asked);
  return state;
}

/**
 * Turns a handler's {@link InputRequired} into the wire `InputRequiredResult`. Refuses (`-32021`) when an input
 * request needs a capability this request did not declare, since MRTR must never surface an undeclared kind; the
 * error lists every missing capability. A result with neither requests nor state is a handler bug.
 */
export async function toInputRequiredResult(
  marker: InputRequired,
  clientCapabilities: JsonObject,
  signer: RequestStateSigner,
  binding: RequestStateBinding,
): Promise<InputRequiredResult> {
  const requests = marker.inputRequests ?? {};
  const missing: JsonObject[] = [];
  for (const [key, request] of Object.entries(requests)) {
    if (!(INPUT_REQUEST_METHODS as readonly string[]).includes(request.method)) {
      throw new Error(`inputRequests["${key}"] has unsupported method ${request.method}`);
    }
    const need = missingCapabilityFor(request, clientCapabilities);
    if (need !== undefined) missing.push(need);
  }
  if (missing.length > 0) {
    throw missingCapability(mergeCapabilities(missing), 'This request needs client capabilities it did not declare');
  }
  const hasRequests = Object.keys(requests).length > 0;
  if (!hasRequests && marker.state === undefined) {
    throw new Error('InputRequired needs at least one input request or a state');
  }
  // With input requests the state is always signed, recording what was asked so the retry's answers can be checked.
  const asked: Record<string, string> = {};
  for (const [key, request] of Object.entries(requests)) asked[key] = request.method;
  const requestState = hasRequests
    ? await signer.sign(binding, marker.state, asked)
    : await signer.sign(binding, marker.state);
  return {
    resultType: 'input_required',
    ...(hasRequests ? { inputRequests: requests } : {}),
    requestState,
  };
}
