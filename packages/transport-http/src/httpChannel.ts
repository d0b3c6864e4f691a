import { onAbort, TransportError, withFields } from '@mcp-tasks/protocol';

/** Extra headers, or a function producing them per exchange. */
export type HeaderSource =
  | Readonly<Record<string, string>>
  | (() => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);

/**
 * The part of `fetch` the client transport uses: a URL string and an init with a method, headers, a string body
 * and a signal. The global `fetch` is one; {@link nodeHttpFetch} is another.
 */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** What every HTTP exchange of a client transport shares: the endpoint, credentials and extra headers. */
export interface HttpChannelOptions {
  readonly url: string | URL;
  readonly token?: string | (() => string | undefined | Promise<string | undefined>);
  readonly headers?: HeaderSource;
  readonly fetch?: FetchLike | undefined;
}

/** One HTTP exchange: its method, the headers on top of the shared ones, and the body. */
export interface HttpCall {
  readonly method: 'POST' | 'GET' | 'DELETE';
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Aborting cancels the exchange and rejects with the signal's reason. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * The exchanges of one client transport: applies the credentials and extra headers, tracks every exchange in
 * flight so {@link abortAll} can end them, and turns fetch failures into `TransportError('send_failed')`.
 */
export class HttpChannel {
  readonly url: string;
  readonly #options: HttpChannelOptions;
  readonly #fetch: FetchLike;
  readonly #inFlight = new Set<AbortController>();
  #closed: TransportError | undefined;

  constructor(options: HttpChannelOptions) {
    this.url = String(options.url);
    this.#options = options;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** True once {@link abortAll} ended the channel. */
  get closed(): boolean {
    return this.#closed !== undefined;
  }

  /** Sends `call` and hands the response to `read`, owning abort and cleanup until `read` settles. */
  async exchange<T>(call: HttpCall, read: (res: Response, signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.#closed !== undefined) throw this.#closed;
    const userSignal = call.signal;
    userSignal?.throwIfAborted();
    const controller = new AbortController();
    // One caller's signal is often shared by many requests in flight: see onAbort.
    const off = userSignal === undefined ? undefined : onAbort(userSignal, () => controller.abort(userSignal.reason));
    this.#inFlight.add(controller);
    try {
      const headers = withFields(await this.#baseHeaders(), call.headers);
      let res: Response;
      try {
        res = await this.#fetch(this.url, {
          method: call.method,
          headers,
          ...(call.body === undefined ? {} : { body: call.body }),
          signal: controller.signal,
        });
      } catch (cause) {
        if (controller.signal.aborted) throw controller.signal.reason;
        throw new TransportError('send_failed', `${call.method} ${this.url} failed`, { cause });
      }
      try {
        return await read(res, controller.signal);
      } catch (error) {
        if (controller.signal.aborted) throw controller.signal.reason;
        throw error;
      }
    } finally {
      off?.();
      this.#inFlight.delete(controller);
    }
  }

  /** Ends every exchange in flight with `error`, and refuses later ones with it. Idempotent. */
  abortAll(error: TransportError): void {
    this.#closed ??= error;
    for (const controller of this.#inFlight) controller.abort(error);
    this.#inFlight.clear();
  }

  /**
   * One last exchange after {@link abortAll} (a session's DELETE): not tracked, bounded by `timeoutMs`, and never
   * rejects; resolves with the status, or undefined when it failed.
   */
  async farewell(headers: Readonly<Record<string, string>>, timeoutMs: number): Promise<number | undefined> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      const res = await this.#fetch(this.url, {
        method: 'DELETE',
        headers: withFields(await this.#baseHeaders(), headers),
        signal: controller.signal,
      });
      await res.body?.cancel();
      return res.status;
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  async #baseHeaders(): Promise<Record<string, string>> {
    const { headers: extra, token } = this.#options;
    const base = typeof extra === 'function' ? await extra() : extra;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(base ?? {})) headers[name.toLowerCase()] = value;
    const bearer = typeof token === 'function' ? await token() : token;
    if (bearer !== undefined) headers.authorization = `Bearer ${bearer}`;
    return headers;
  }
}
