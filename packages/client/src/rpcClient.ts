/**
 * The request envelope: ids, the per-request `_meta`, protocol version retry, and turning responses into either a
 * result object, a `ProtocolError`, or an `InvalidResponseError`. Knows nothing about tools or tasks.
 */
import type {
  ClientCapabilities,
  ClientTransport,
  Implementation,
  TransportNotification,
  TransportResponse,
} from '@mcp-tasks/protocol';
import { ErrorCode, isRecord, META, ProtocolError, withFields } from '@mcp-tasks/protocol';
import { InvalidResponseError } from './errors.js';

/** Options of {@link RpcClient}. */
export interface RpcClientOptions {
  readonly transport: ClientTransport;
  readonly clientInfo: Implementation;
  /** Protocol versions this client speaks, most preferred first. */
  readonly protocolVersions: readonly string[];
  /** Sees every notification that arrives on any request (e.g. list-changed, to invalidate caches). */
  readonly onNotification?: ((notification: TransportNotification) => void) | undefined;
}

/** Options of one request. */
export interface RpcRequestOptions {
  readonly capabilities: ClientCapabilities;
  readonly signal?: AbortSignal | undefined;
  /** Notifications scoped to this request, in order, before the promise settles. */
  readonly onNotification?: ((notification: TransportNotification) => void) | undefined;
  /** Called with the JSON-RPC id of each attempt just before it is sent (a version retry is a new attempt). */
  readonly onSend?: ((id: number) => void) | undefined;
}

/** A successful result as it arrived: a JSON object, not yet checked against the method's schema. */
export type RawResult = Readonly<Record<string, unknown>>;

/**
 * Sends requests with fresh numeric ids and the per-request `_meta` (protocol version, client capabilities,
 * client info). On `-32022` it retries once with the most preferred version it speaks from
 * `data.supported` and keeps using that version afterwards; if none matches it throws the server's error with a
 * message naming both lists. JSON-RPC error responses reject with `ProtocolError`; malformed responses with
 * `InvalidResponseError`; transport failures pass through as `TransportError`.
 */
export class RpcClient {
  readonly #options: RpcClientOptions;
  #nextId = 1;
  #version: string;

  constructor(options: RpcClientOptions) {
    const preferred = options.protocolVersions[0];
    if (preferred === undefined) throw new RangeError('protocolVersions must not be empty');
    this.#options = options;
    this.#version = preferred;
  }

  /** The protocol version the next request will declare. */
  get protocolVersion(): string {
    return this.#version;
  }

  /** Sends `method` with `params` (its `_meta` merged over the envelope's) and resolves with the raw result. */
  async request(
    method: string,
    params: Readonly<Record<string, unknown>>,
    options: RpcRequestOptions,
  ): Promise<RawResult> {
    try {
      return await this.#attempt(method, params, options);
    } catch (error) {
      if (!(error instanceof ProtocolError) || error.code !== ErrorCode.UnsupportedProtocolVersion) throw error;
      const supported = supportedVersions(error.data);
      const version = this.#options.protocolVersions.find((v) => supported.includes(v));
      if (version === undefined) {
        throw new ProtocolError(
          error.code,
          `No common protocol version: server supports [${supported.join(', ')}], client speaks [${this.#options.protocolVersions.join(', ')}]`,
          error.data,
        );
      }
      this.#version = version;
      return this.#attempt(method, params, options);
    }
  }

  /**
   * Sends `method` with `params` exactly as given (no envelope, no version retry): the 2025-era wire, where the
   * session fixed the version and capabilities at `initialize`. Errors as for {@link request}.
   */
  requestPlain(
    method: string,
    params: Readonly<Record<string, unknown>>,
    options: Omit<RpcRequestOptions, 'capabilities'>,
  ): Promise<RawResult> {
    return this.#send(method, params, options);
  }

  #attempt(method: string, params: Readonly<Record<string, unknown>>, options: RpcRequestOptions): Promise<RawResult> {
    const callerMeta = params._meta;
    const envelope = {
      [META.protocolVersion]: this.#version,
      [META.clientCapabilities]: options.capabilities,
      [META.clientInfo]: this.#options.clientInfo,
    };
    const meta = isRecord(callerMeta) ? withFields(callerMeta, envelope) : envelope;
    return this.#send(method, withFields(params, { _meta: meta }), options);
  }

  async #send(
    method: string,
    params: Readonly<Record<string, unknown>>,
    options: Omit<RpcRequestOptions, 'capabilities'>,
  ): Promise<RawResult> {
    const id = this.#nextId++;
    const message = { jsonrpc: '2.0' as const, id, method, params };
    options.onSend?.(id);
    const global = this.#options.onNotification;
    const scoped = options.onNotification;
    const response: unknown = await this.#options.transport.request(message, {
      ...(options.signal ? { signal: options.signal } : {}),
      onNotification: (notification) => {
        global?.(notification);
        scoped?.(notification);
      },
    });
    return unwrap(method, id, response);
  }
}

function unwrap(method: string, id: number, response: unknown): RawResult {
  if (!isRecord(response) || response.jsonrpc !== '2.0') {
    throw new InvalidResponseError(method, 'not a JSON-RPC 2.0 response');
  }
  if ('error' in response) {
    const error = response.error;
    if (!isRecord(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
      throw new InvalidResponseError(method, 'malformed JSON-RPC error object');
    }
    // An error whose id is null (JSON-RPC 2.0) or absent (the 2026-07-28 schema) answers a request the server
    // could not identify, e.g. an HTTP 401; the transport already tied it to ours, so it is still our answer.
    if (response.id !== id && response.id !== null && response.id !== undefined)
      throw new InvalidResponseError(method, `wrong response id ${String(response.id)}`);
    throw ProtocolError.fromError(error as TransportResponseError);
  }
  if (response.id !== id) throw new InvalidResponseError(method, `wrong response id ${String(response.id)}`);
  if (!isRecord(response.result)) throw new InvalidResponseError(method, 'result is not an object');
  return response.result;
}

type TransportResponseError = Extract<TransportResponse, { error: unknown }>['error'];

function supportedVersions(data: unknown): string[] {
  if (!isRecord(data) || !Array.isArray(data.supported)) return [];
  return data.supported.filter((v): v is string => typeof v === 'string');
}
