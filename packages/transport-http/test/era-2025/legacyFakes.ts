import type { MessageHandler, PeerSession, RequestContext, TransportResponse } from '@mcp-tasks/protocol';
import { createFetchHandler, type FetchHandler } from '../../src/fetch.js';
import { readSseEvents } from '../../src/readSseEvents.js';
import { type HttpBindingOptions, type HttpServerHandle, listen } from '../../src/server.js';

type Msg = { id?: string | number; method?: string; params?: Record<string, unknown> };

/** What the fake legacy runtime saw. */
export interface LegacyRecord {
  readonly contexts: RequestContext[];
  /** Every session a message arrived with, by id. */
  readonly sessions: Map<string, PeerSession>;
  /** Request ids whose `context.signal` aborted. */
  readonly aborted: (string | number)[];
}

/**
 * A fake 2025-era runtime:
 * - `initialize`: a result naming the version, or -32602 when `params.protocolVersion` is `bad`;
 * - `tools/call` by `params.name`: `ask` sends `elicitation/create` through `context.request` and returns the
 *   answer; `wait` stays pending until `context.signal` aborts; `broadcast` calls `session.notify` and returns;
 *   `fail` answers -32602; anything else returns `{}`;
 * - notifications: accepted (undefined).
 */
export function legacyRuntime(): { handler: MessageHandler; record: LegacyRecord } {
  const record: LegacyRecord = { contexts: [], sessions: new Map(), aborted: [] };
  const handler: MessageHandler = async (raw, context) => {
    record.contexts.push(context);
    if (context.session !== undefined) record.sessions.set(context.session.id, context.session);
    const message = raw as Msg;
    const id = message.id;
    if (id === undefined) return undefined;
    const ok = (result: Record<string, unknown>): TransportResponse => ({ jsonrpc: '2.0', id, result });
    const error = (code: number): TransportResponse => ({ jsonrpc: '2.0', id, error: { code, message: 'refused' } });
    if (message.method === 'initialize') {
      const version = message.params?.protocolVersion;
      if (version === 'bad') return error(-32602);
      return ok({ protocolVersion: version, capabilities: {}, serverInfo: { name: 'fake', version: '1' } });
    }
    switch (message.params?.name) {
      case 'ask': {
        const answer = await context.request?.({ method: 'elicitation/create', params: { message: 'name?' } });
        return ok({ content: [], answer });
      }
      case 'wait':
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
        record.aborted.push(id);
        return ok({ content: [], cancelled: true });
      case 'progressThenWait':
        // Streams a notification first, so the POST's answer is already an SSE stream when it is cancelled.
        context.notify({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: id, progress: 1 },
        });
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
        record.aborted.push(id);
        return ok({ content: [], cancelled: true });
      case 'broadcast':
        context.session?.notify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
        return ok({ content: [] });
      case 'fail':
        return error(-32602);
      default:
        return ok({});
    }
  };
  return { handler, record };
}

/** Headers of a 2025-11-25 POST, with the session when given. */
export function legacyHeaders(sessionId?: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
    ...extra,
  };
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

/** A legacy `tools/call` of one of the fake's tools. */
export function call(id: number, name: string) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } };
}

/** One front under test, driven with fetch `Request`/`Response` objects either way. */
export interface Front {
  send(method: string, body: unknown, headers: Record<string, string>, signal?: AbortSignal): Promise<Response>;
  close(): Promise<void>;
  readonly record: LegacyRecord;
}

/** What both fronts accept alike. */
export type FrontOptions = HttpBindingOptions;

/** The node:http front on a real socket (listen on 127.0.0.1:0), or the fetch handler called in-process. */
export async function startFront(kind: 'node' | 'fetch', options: FrontOptions = {}): Promise<Front> {
  const { handler, record } = legacyRuntime();
  if (kind === 'node') {
    const handle: HttpServerHandle = await listen(handler, options);
    return {
      record,
      send: (method, body, headers, signal) =>
        fetch(handle.url, { method, headers, body: body === undefined ? null : JSON.stringify(body), signal }),
      close: () => handle.close(),
    };
  }
  const fetchHandler: FetchHandler = createFetchHandler(handler, { allowedHosts: ['localhost'], ...options });
  return {
    record,
    send: (method, body, headers, signal) =>
      fetchHandler(
        new Request('http://localhost/mcp', {
          method,
          headers,
          body: body === undefined ? null : JSON.stringify(body),
          signal,
        }),
      ),
    close: async () => fetchHandler.close(),
  };
}

/** Reads SSE events one by one from a response that stays open. */
export function eventReader(res: Response): { next(): Promise<Record<string, unknown>>; stop(): Promise<void> } {
  const events = readSseEvents(res.body as ReadableStream<Uint8Array>);
  return {
    next: async () => {
      const step = await events.next();
      if (step.done === true) throw new Error('the stream ended');
      return JSON.parse(step.value) as Record<string, unknown>;
    },
    stop: async () => {
      await events.return(undefined);
    },
  };
}
