/**
 * A scripted in-memory server for client tests: no ports, no server package. Each test supplies a responder that
 * sees every request (with the fake clock's time) and returns a result object, an error, a raw response, or a
 * promise of one; it may push request-scoped notifications first.
 */
import type {
  ClientPeerHandler,
  ClientRequestOptions,
  ClientTransport,
  TransportClosed,
  TransportNotification,
  TransportRequest,
  TransportResponse,
} from '@mcp-tasks/protocol';
import { TransportError } from '@mcp-tasks/protocol';

/** What a responder returns: a result object, `{ error }`, `{ raw }` (sent verbatim), or a promise of one. */
export type Reply =
  | Record<string, unknown>
  | { readonly error: { code: number; message: string; data?: unknown } }
  | { readonly raw: unknown };

export interface RequestRecord {
  readonly message: TransportRequest;
  readonly at: number;
  readonly signal: AbortSignal | undefined;
}

export type Responder = (
  request: TransportRequest,
  context: { notify(notification: TransportNotification): void; signal: AbortSignal | undefined; index: number },
) => Reply | Promise<Reply>;

/** The `server/discover` answer of a 2026-07-28 server, given to the auto client's first-call probe. */
export const MODERN_DISCOVER = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: {},
  serverInfo: { name: 'fake', version: '1' },
} as const;

export interface FakeTransportOptions {
  /**
   * `modern` (default): a first request that is `server/discover` (the era probe of a client in `auto` mode) is
   * answered with {@link MODERN_DISCOVER} and recorded in `probes`, not `requests`, so tests of the 2026-07-28
   * behaviour see exactly the traffic they script. `responder`: the responder sees the probe like any request.
   */
  readonly probe?: 'modern' | 'responder';
}

export class FakeTransport implements ClientTransport {
  readonly requests: RequestRecord[] = [];
  /** Probes answered by the fake itself (see {@link FakeTransportOptions.probe}). */
  readonly probes: TransportRequest[] = [];
  readonly #probe: 'modern' | 'responder';
  /** What the client installed to receive server-initiated messages (2025-era sessions). */
  peer: ClientPeerHandler | undefined;
  readonly sentNotifications: TransportNotification[] = [];
  isClosed = false;
  #responder: Responder;
  #settleClosed: (info: TransportClosed) => void = () => undefined;
  readonly closed = new Promise<TransportClosed>((resolve) => {
    this.#settleClosed = resolve;
  });

  constructor(responder: Responder, options: FakeTransportOptions = {}) {
    this.#responder = responder;
    this.#probe = options.probe ?? 'modern';
  }

  /** Requests with this method, in order. */
  calls(method: string): TransportRequest[] {
    return this.requests.filter((r) => r.message.method === method).map((r) => r.message);
  }

  /** Times (fake clock) at which requests with this method were sent. */
  times(method: string): number[] {
    return this.requests.filter((r) => r.message.method === method).map((r) => r.at);
  }

  async request(message: TransportRequest, options: ClientRequestOptions = {}): Promise<TransportResponse> {
    if (this.isClosed) throw new TransportError('closed', 'closed');
    if (
      this.#probe === 'modern' &&
      message.method === 'server/discover' &&
      this.requests.length + this.probes.length === 0
    ) {
      this.probes.push(structuredClone(message));
      return { jsonrpc: '2.0', id: message.id, result: { ...MODERN_DISCOVER } };
    }
    const index = this.requests.length;
    this.requests.push({ message: structuredClone(message), at: Date.now(), signal: options.signal });
    const signal = options.signal;
    signal?.throwIfAborted();
    const reply = Promise.resolve(
      this.#responder(message, { notify: (n) => options.onNotification?.(n), signal, index }),
    );
    // Like a real transport: abort matters only while the request is in flight.
    let onAbort = (): void => undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        this.sentNotifications.push({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: message.id },
        });
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    const value = await Promise.race([reply, aborted]).finally(() => signal?.removeEventListener('abort', onAbort));
    if ('raw' in value) return value.raw as TransportResponse;
    if ('error' in value)
      return { jsonrpc: '2.0', id: message.id, error: value.error as { code: number; message: string } };
    return { jsonrpc: '2.0', id: message.id, result: value };
  }

  setPeerHandler(handler: ClientPeerHandler): void {
    this.peer = handler;
  }

  /** Sends a server-to-client request through the installed peer handler and resolves with the client's answer. */
  serverRequest(
    method: string,
    params?: Record<string, unknown>,
    id: string | number = `s-${method}`,
  ): Promise<TransportResponse> {
    if (this.peer === undefined) throw new Error('no peer handler installed');
    return this.peer.onRequest(
      { jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) },
      {
        signal: new AbortController().signal,
      },
    );
  }

  async notify(message: TransportNotification): Promise<void> {
    this.sentNotifications.push(message);
  }

  async close(): Promise<void> {
    if (!this.isClosed) this.#settleClosed({ initiator: 'local' });
    this.isClosed = true;
  }

  /** Simulates the server going away. */
  drop(): void {
    if (!this.isClosed) this.#settleClosed({ initiator: 'remote', error: new TransportError('closed', 'server gone') });
    this.isClosed = true;
  }
}

/** A task seed / state with sensible defaults. */
export function task(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    taskId: 't-1',
    status,
    createdAt: new Date(0).toISOString(),
    lastUpdatedAt: new Date(0).toISOString(),
    ttlMs: null,
    ...extra,
  };
}

/** A `tools/call` answer creating task `t-1`. */
export function created(status = 'working', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { resultType: 'task', ...task(status, extra) };
}

/** A `tasks/get` answer. */
export function polled(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { resultType: 'complete', ...task(status, extra) };
}

export const ack = { resultType: 'complete' } as const;

export const textResult = (text: string, isError = false) => ({
  resultType: 'complete',
  content: [{ type: 'text', text }],
  isError,
});

export const elicit = (message: string) => ({
  method: 'elicitation/create',
  params: { mode: 'form', message, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } },
});

/** Waits (microtask/timer turns, bounded) until `condition` holds; for real-timer tests. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 0));
  }
  throw new Error(`timed out waiting for ${what}`);
}
