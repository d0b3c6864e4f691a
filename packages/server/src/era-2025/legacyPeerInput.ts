import type {
  InputRequest,
  InputResponse,
  OutboundRequest,
  PeerRequestOptions,
  RequestContext,
  TransportResponse,
} from '@mcp-tasks/protocol';
import { formatZodError } from '../errors.js';
import { parseInputAnswer } from '../inputAnswers.js';
import type { JsonObject } from '../jsonRpc.js';
import type { InputChannel } from '../toolContext.js';

/** Sends one server-to-client request and resolves with the client's response (a JSON-RPC error resolves too). */
export type PeerSend = (message: OutboundRequest, options?: PeerRequestOptions) => Promise<TransportResponse>;

/**
 * The client answered a server-to-client request with a JSON-RPC error, or with a result that does not match the
 * method's result schema. A plain `Error` on purpose: a tool that does not catch it ends with an `isError` result the
 * model can read, not with the client's own error code on the tool call.
 */
export class PeerRequestError extends Error {
  /** Always `'PeerRequestError'`. */
  override readonly name = 'PeerRequestError';
  /** The client's JSON-RPC error code, or undefined when the result was malformed. */
  readonly code: number | undefined;
  /** The client's error `data`, if any. */
  readonly data: unknown;

  /** Creates the error; `code` and `data` come from the client's JSON-RPC error, when it sent one. */
  constructor(message: string, code?: number, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

/**
 * Sends one server-to-client request and resolves with the client's raw result object. Rejects with
 * {@link PeerRequestError} when the client answers with a JSON-RPC error, and with the transport's error when the
 * session ends or `signal` aborts. The caller validates the result.
 */
export async function peerResult(send: PeerSend, request: OutboundRequest, signal?: AbortSignal): Promise<JsonObject> {
  const response = await send(request, signal === undefined ? undefined : { signal });
  if ('error' in response) {
    const { code, message, data } = response.error;
    throw new PeerRequestError(`The client answered ${request.method} with error ${code}: ${message}`, code, data);
  }
  return response.result;
}

/**
 * Asks the client directly (a 2025-era `elicitation/create`, `sampling/createMessage` or `roots/list`) and resolves
 * with its answer, validated against the result schema of `request.method`. Rejects with {@link PeerRequestError}
 * for an error response or a malformed result, and with the transport's error when the session ends or `signal`
 * aborts. The caller checks the client's declared capabilities first.
 */
export async function askPeer(send: PeerSend, request: InputRequest, signal?: AbortSignal): Promise<InputResponse> {
  const result = await peerResult(send, { method: request.method, params: request.params }, signal);
  const parsed = parseInputAnswer(request.method, result);
  if (!parsed.success) {
    throw new PeerRequestError(
      `The client's answer to ${request.method} is not a valid result: ${formatZodError(parsed.error)}`,
    );
  }
  return parsed.data;
}

/**
 * The way back to the client for one inbound request: `context.request` (over Streamable HTTP, on that request's
 * own stream), else the session's, else undefined.
 */
export function peerSendOf(context: RequestContext): PeerSend | undefined {
  if (context.request !== undefined) return context.request.bind(context);
  const session = context.session;
  return session === undefined ? undefined : (message, options) => session.request(message, options);
}

/**
 * The input channel of a synchronous tool call in a 2025-era session: every `ctx.elicit`, `ctx.sample` and
 * `ctx.listRoots` becomes a real request to the client, awaited while the tool runs.
 */
export class PeerInputChannel implements InputChannel {
  readonly mode = 'sync' as const;
  readonly taskId = undefined;
  readonly #send: PeerSend;
  readonly #signal: () => AbortSignal;

  /** `signal` is read when the client is asked: it cancels the question. */
  constructor(send: PeerSend, signal: () => AbortSignal) {
    this.#send = send;
    this.#signal = signal;
  }

  ask(request: InputRequest): Promise<InputResponse> {
    return askPeer(this.#send, request, this.#signal());
  }

  /** A synchronous call has no task whose status could change. */
  async setStatus(): Promise<void> {}

  get attempt(): number {
    return 1;
  }

  /** A synchronous call has no task to record steps in: the step just runs. */
  async step<T>(_name: string, run: (signal: AbortSignal) => T | Promise<T>, signal: AbortSignal): Promise<T> {
    return run(signal);
  }
}
