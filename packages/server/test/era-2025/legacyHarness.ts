import {
  type OutboundRequest,
  type PeerSession,
  type RequestContext,
  TransportError,
  type TransportNotification,
  type TransportResponse,
} from '@mcp-tasks/protocol';
import type { McpServer } from '../../src/index.js';

/** How the fake client answers one server-to-client request. */
export type PeerAnswer =
  | { readonly result: Record<string, unknown> }
  | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } };

let nextSession = 1;

/**
 * A fake 2025-era session: records what the server sends outside requests (`notify`) and the requests it makes
 * (`request`), answering those from a queue in order.
 */
export class FakeSession implements PeerSession {
  readonly id = `session-${nextSession++}`;
  readonly notifications: TransportNotification[] = [];
  readonly requests: OutboundRequest[] = [];
  readonly #answers: PeerAnswer[] = [];
  readonly #controller = new AbortController();
  readonly closed = this.#controller.signal;

  /** Queues the answers to the next requests, in order. */
  answer(...answers: PeerAnswer[]): this {
    this.#answers.push(...answers);
    return this;
  }

  /** Records even after close, so tests can see that the server stopped sending. */
  notify(notification: TransportNotification): void {
    this.notifications.push(notification);
  }

  async request(message: OutboundRequest): Promise<TransportResponse> {
    this.requests.push(message);
    const answer = this.#answers.shift();
    if (answer === undefined) throw new TransportError('closed', `no answer queued for ${message.method}`);
    return { jsonrpc: '2.0', id: this.requests.length, ...answer } as TransportResponse;
  }

  close(): void {
    this.#controller.abort();
  }
}

type Result = Record<string, unknown>;
type WireError = { code: number; message: string; data?: unknown };

/** A 2025-era client on one {@link FakeSession}, sending raw JSON-RPC (no `_meta` envelope) into `server.handle`. */
export class LegacyClient {
  #nextId = 1;

  constructor(
    readonly server: McpServer,
    readonly session: FakeSession = new FakeSession(),
    /** When true, requests also carry `context.request` (as Streamable HTTP does), recorded in {@link viaContext}. */
    readonly withContextRequest = false,
  ) {}

  /** Requests sent through `context.request` rather than the session. */
  readonly viaContext: OutboundRequest[] = [];

  /** Sends one message; resolves with the response and the request-scoped notifications. */
  async send(
    method: string,
    params?: Record<string, unknown>,
    options: { notification?: boolean; signal?: AbortSignal } = {},
  ) {
    const notifications: TransportNotification[] = [];
    const context: RequestContext = {
      notify: (notification) => notifications.push(notification),
      signal: options.signal ?? new AbortController().signal,
      session: this.session,
      ...(this.withContextRequest
        ? {
            request: (message: OutboundRequest) => {
              this.viaContext.push(message);
              return this.session.request(message);
            },
          }
        : {}),
    };
    const message = {
      jsonrpc: '2.0',
      ...(options.notification ? {} : { id: this.#nextId++ }),
      method,
      ...(params === undefined ? {} : { params }),
    };
    const response = await this.server.handle(message, context);
    return { response, notifications };
  }

  async ok(method: string, params?: Record<string, unknown>): Promise<Result> {
    const { response } = await this.send(method, params);
    if (response === undefined || !('result' in response)) {
      throw new Error(`expected a result for ${method}, got ${JSON.stringify(response)}`);
    }
    return response.result as Result;
  }

  async fail(method: string, params?: Record<string, unknown>): Promise<WireError> {
    const { response } = await this.send(method, params);
    if (response === undefined || !('error' in response)) {
      throw new Error(`expected an error for ${method}, got ${JSON.stringify(response)}`);
    }
    return response.error as WireError;
  }

  /** `initialize` then `notifications/initialized`; resolves with the `InitializeResult`. */
  async connect(
    options: { version?: string; capabilities?: Record<string, unknown>; initialized?: boolean } = {},
  ): Promise<Result> {
    const result = await this.ok('initialize', {
      protocolVersion: options.version ?? '2025-11-25',
      capabilities: options.capabilities ?? { sampling: {}, elicitation: {}, roots: { listChanged: true } },
      clientInfo: { name: 'legacy-test-client', version: '1.0.0' },
    });
    if (options.initialized !== false) await this.send('notifications/initialized', undefined, { notification: true });
    return result;
  }
}
