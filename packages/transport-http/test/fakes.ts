import { request as httpRequest } from 'node:http';
import type { MessageHandler, RequestContext, TransportResponse } from '@mcp-tasks/protocol';

export const VERSION = '2026-07-28';

type Msg = { id?: string | number; method?: string; params?: Record<string, unknown> };

/** The `_meta` a 2026-07-28 client puts on every request. */
export function meta(version = VERSION): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
  };
}

/** A JSON-RPC request with complete `_meta`. */
export function rpc(id: number | string, method: string, params: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0' as const, id, method, params: { ...params, _meta: meta() } };
}

/** Headers matching `rpc(…)` for a method without Mcp-Name. */
export function mcpHeaders(method: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-method': method,
    'mcp-protocol-version': VERSION,
    ...extra,
  };
}

/** Records what each call saw, so tests can assert on contexts. */
export interface Recorded {
  readonly contexts: RequestContext[];
  readonly aborted: Promise<void>;
}

/**
 * A fake runtime with one behaviour per method:
 * - `echo`: result echoes params (any method not listed below behaves like this);
 * - `progress`: three `notifications/progress` via context.notify, then the result (→ SSE);
 * - `listen`: ack notification, then pending until `context.signal` aborts (resolves a recorder promise);
 * - `fail`: an error response with `params.code`;
 * - `throw`: the promise rejects (a contract violation the transport must survive);
 * - a message without id: undefined (notification accepted).
 */
export function fakeRuntime(): { handler: MessageHandler; recorded: Recorded } {
  const contexts: RequestContext[] = [];
  let markAborted: () => void = () => {};
  const aborted = new Promise<void>((resolve) => {
    markAborted = resolve;
  });
  const handler: MessageHandler = async (raw, context) => {
    contexts.push(context);
    const message = raw as Msg;
    if (message.id === undefined) return undefined;
    const id = message.id;
    switch (message.method) {
      case 'progress':
        for (let progress = 1; progress <= 3; progress++) {
          context.notify({
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken: 't', progress },
          });
        }
        return { jsonrpc: '2.0', id, result: { resultType: 'complete', done: true } };
      case 'listen':
        context.notify({
          jsonrpc: '2.0',
          method: 'notifications/subscriptions/acknowledged',
          params: { _meta: { 'io.modelcontextprotocol/subscriptionId': id }, notifications: {} },
        });
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
        markAborted();
        return { jsonrpc: '2.0', id, result: { resultType: 'complete' } };
      case 'fail':
        return {
          jsonrpc: '2.0',
          id,
          error: {
            code: Number(message.params?.code),
            message: 'failed on purpose',
            ...(message.params?.data === undefined ? {} : { data: message.params.data }),
          },
        } satisfies TransportResponse;
      case 'throw':
        throw new Error('runtime bug');
      default:
        return { jsonrpc: '2.0', id, result: { resultType: 'complete', echo: message.params ?? null } };
    }
  };
  return { handler, recorded: { contexts, aborted } };
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A raw node:http request, for what fetch cannot send (bad Host, odd methods, chunked bodies). */
export function rawRequest(
  url: URL,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer | Buffer[] },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'POST', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    const body = options.body;
    if (Array.isArray(body)) {
      for (const part of body) req.write(part);
      req.end();
    } else {
      req.end(body);
    }
  });
}
