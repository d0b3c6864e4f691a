import { INPUT_REQUEST_METHODS, mergeCapabilities, missingCapabilityFor } from './capabilities.js';
import { invalidParams, missingCapability } from './errors.js';
import { isJsonObject, type JsonObject } from './jsonRpc.js';
import type { RequestStateBinding, RequestStateSigner } from './requestState.js';

/** A server→client request carried in `inputRequests` (`elicitation/create`, `sampling/createMessage`, `roots/list`). */
export interface InputRequest {
  readonly method: string;
  readonly params?: JsonObject;
}

/**
 * What a handler returns to answer `input_required` (MRTR): the requests the client must fulfil and an optional
 * state the runtime signs into `requestState`. Create it with `ctx.inputRequired(...)`.
 */
export class InputRequired {
  readonly inputRequests: Readonly<Record<string, InputRequest>> | undefined;
  readonly state: unknown;

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
    return requestState === undefined ? { inputResponses: {} } : { inputResponses: {}, requestState };
  if (!isJsonObject(inputResponses)) throw invalidParams('Invalid params: inputResponses must be an object');
  for (const [key, value] of Object.entries(inputResponses)) {
    if (!isJsonObject(value)) throw invalidParams(`Invalid params: inputResponses["${key}"] must be an object`);
  }
  const responses = inputResponses as Readonly<Record<string, JsonObject>>;
  return requestState === undefined ? { inputResponses: responses } : { inputResponses: responses, requestState };
}

/** Verifies a retry's `requestState` (if any) and returns the handler state it carries. */
export async function readRequestState(
  signer: RequestStateSigner,
  binding: RequestStateBinding,
  mrtr: MrtrParams,
): Promise<unknown> {
  return mrtr.requestState === undefined ? undefined : signer.verify(binding, mrtr.requestState);
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
): Promise<JsonObject> {
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
  const requestState = marker.state === undefined ? undefined : await signer.sign(binding, marker.state);
  return {
    resultType: 'input_required',
    ...(hasRequests ? { inputRequests: requests } : {}),
    ...(requestState === undefined ? {} : { requestState }),
  };
}
