/**
 * A `fetch` for {@link HttpClientTransport} on Node, built on node:http and node:https instead of the global
 * fetch (undici). Why it exists: on Node 20 the global fetch builds a `Request`, clones its body through a web
 * stream tee and, whenever it is given an `AbortSignal` (the transport always gives one), registers the request
 * with a `WeakRef` and a `FinalizationRegistry`. V8's young-generation collector keeps a `WeakRef`'s target alive,
 * so every exchange's whole graph (request, response, streams) outlives its exchange until the next full
 * collection. Measured with 1,000 tasks in flight on one client: a quarter of the client's CPU per task and a
 * third of its young-generation collections go away, and the heap between collections halves.
 */
import http from 'node:http';
import https from 'node:https';
import { onAbort } from '@mcp-tasks/protocol';
import type { FetchLike } from './httpChannel.js';

/** Options of {@link nodeHttpFetch}. */
export interface NodeHttpFetchOptions {
  /**
   * The agent for `http:` URLs. Default: one keep-alive agent of this fetch's own, with no bound on sockets per
   * origin (as the global fetch): a listen stream or a long synchronous call holds a socket for as long as it
   * runs, and a bound would queue every later request behind them. Pass an agent to bound it.
   */
  readonly httpAgent?: http.Agent;
  /** The agent for `https:` URLs (TLS options such as `ca` go here). Default: as for `httpAgent`. */
  readonly httpsAgent?: https.Agent;
}

/** A {@link FetchLike} with a way to let go of its idle sockets. */
export interface NodeHttpFetch extends FetchLike {
  /** Destroys the default agents' sockets (agents passed in are the caller's to close). Idempotent. */
  close(): void;
}

/**
 * Creates a fetch over node:http for {@link HttpClientTransport}'s `fetch` option:
 * `new HttpClientTransport({ url, fetch: nodeHttpFetch() })`. It does what the transport asks of a fetch, and no
 * more:
 * - `init.method`, `init.headers` (a record, a `Headers` or pairs) and `init.body` (a string or bytes, sent with
 *   its `Content-Length`); any other body is refused with a `TypeError`, as is a URL that is not `http:`/`https:`.
 * - The response's body streams as it arrives (SSE works); cancelling it closes the connection, which is how the
 *   transport ends a listen stream or a request it gives up on.
 * - Aborting `init.signal` closes the connection, before or after the response headers: the promise, or the
 *   body, rejects with the signal's reason.
 * - A failure to connect or a connection lost before the headers rejects with `TypeError('fetch failed')` whose
 *   `cause` is the socket error (`ECONNREFUSED`, `ECONNRESET`…), the shape the global fetch uses.
 * - Redirects are not followed: a 3xx is the response (the transport reports it as `http_status`). No
 *   `Accept-Encoding` is sent, so the server does not compress.
 * - No timeouts of its own (the global fetch ends a response after 300 s without headers or body bytes): bound a
 *   call with its signal, as the client's `callTool(…, { signal: AbortSignal.timeout(ms) })` does.
 */
export function nodeHttpFetch(options: NodeHttpFetchOptions = {}): NodeHttpFetch {
  const httpAgent = options.httpAgent ?? new http.Agent({ keepAlive: true });
  const httpsAgent = options.httpsAgent ?? new https.Agent({ keepAlive: true });
  const fetchOverNode = (input: string, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input);
    if (url.protocol === 'http:') return send(http.request, url, init, httpAgent);
    if (url.protocol === 'https:') return send(https.request, url, init, httpsAgent);
    return Promise.reject(new TypeError(`nodeHttpFetch takes http: and https: URLs, not ${url.protocol}`));
  };
  return Object.assign(fetchOverNode, {
    close(): void {
      if (httpAgent !== options.httpAgent) httpAgent.destroy();
      if (httpsAgent !== options.httpsAgent) httpsAgent.destroy();
    },
  });
}

type RequestFunction = (url: URL, options: http.RequestOptions) => http.ClientRequest;

function send(request: RequestFunction, url: URL, init: RequestInit, agent: http.Agent): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  let body: string | Uint8Array | undefined;
  let headers: Record<string, string>;
  try {
    body = bodyOf(init.body);
    headers = headerRecord(init.headers);
  } catch (error) {
    return Promise.reject(error);
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const method = (init.method ?? 'GET').toUpperCase();
  return new Promise<Response>((resolve, reject) => {
    const req = request(url, { method, headers, agent });
    // Once the response is handed over, an abort ends its body instead (see toResponse).
    let onAbortResponse: ((reason: unknown) => void) | undefined;
    const off =
      signal === undefined
        ? undefined
        : onAbort(signal, () => {
            if (onAbortResponse !== undefined) return onAbortResponse(signal.reason);
            req.destroy();
            reject(signal.reason);
          });
    // Errors after the response reach its body; this one rejects the promise while it is still pending.
    req.on('error', (error) => {
      off?.();
      reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }));
    });
    req.once('response', (res) => {
      const response = toResponse(res, method, off);
      onAbortResponse = (reason) => {
        // A finished response has nothing left to end (and its socket may already serve another request).
        if (!res.complete) res.destroy(reason instanceof Error ? reason : new Error(String(reason)));
      };
      resolve(response);
    });
    req.end(body);
  });
}

/** The body the transport sends: a string, bytes or nothing. */
function bodyOf(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  throw new TypeError('nodeHttpFetch sends a string or Uint8Array body only');
}

function headerRecord(init: RequestInit['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  if (init === undefined) return headers;
  if (Array.isArray(init) || init instanceof Headers) {
    // Headers and pairs go through Headers' own validation.
    new Headers(init).forEach((value, name) => {
      headers[name] = value;
    });
    return headers;
  }
  // A plain record, what the transport passes; node:http validates names and values.
  for (const [name, value] of Object.entries(init)) headers[name.toLowerCase()] = value;
  return headers;
}

/** Statuses whose response has no body (a `Response` refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The node response as a fetch `Response` whose body streams `res`; `done` runs once `res` is finished. */
function toResponse(res: http.IncomingMessage, method: string, done: (() => void) | undefined): Response {
  res.once('close', () => done?.());
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let at = 0; at + 1 < raw.length; at += 2) headers.append(raw[at] as string, raw[at + 1] as string);
  const status = res.statusCode ?? 0;
  const init = { status, statusText: res.statusMessage ?? '', headers };
  if (NULL_BODY.has(status) || method === 'HEAD') {
    // Nobody reads this response: a connection lost now is nobody's error (and must not be an unhandled one).
    res.on('error', () => undefined);
    res.resume(); // drain, so the socket goes back to the pool
    return new Response(null, init);
  }
  return new Response(bodyStream(res), init);
}

/** `res` as a web stream: pauses the socket while the reader is behind, and closes it when the reader cancels. */
function bodyStream(res: http.IncomingMessage): ReadableStream<Uint8Array> {
  /** Closed, errored or cancelled: the controller takes nothing more. */
  let ended = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        res.on('data', (chunk: Buffer) => {
          if (ended) return;
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) res.pause();
        });
        // Each settles the controller once: after a cancel, or an error, later events find it done.
        const settle = (how: () => void): void => {
          if (ended) return;
          ended = true;
          how();
        };
        res.once('end', () => settle(() => controller.close()));
        res.once('error', (error) => settle(() => controller.error(error)));
        // Node reports a connection lost mid-body as an error; this is the safety net for one it does not.
        res.once('close', () =>
          settle(() => controller.error(new TypeError('terminated: the connection closed before the body ended'))),
        );
      },
      pull() {
        res.resume();
      },
      cancel() {
        // An unfinished response cannot give its socket back: destroying it closes the connection.
        ended = true;
        res.destroy();
      },
      // A few chunks ahead of the reader, then the socket pauses (backpressure reaches the server).
    },
    new CountQueuingStrategy({ highWaterMark: 8 }),
  );
}
