/**
 * A fake `MessageHandler` for transport contract tests: a handful of `test/*` methods that exercise what a
 * transport must carry (concurrency, large messages, request-scoped notifications, listen streams, cancellation),
 * with every observation reported back over the wire (`test/state`), so the same assertions hold whether the
 * handler runs in-process or in a child process.
 */
import type {
  MessageHandler,
  RequestContext,
  TransportNotification,
  TransportRequestId,
  TransportResponse,
} from '@mcp-tasks/protocol';
import { isRecord, META } from '@mcp-tasks/protocol';

/** What the contract handler observed; `test/state` returns a JSON copy of it. */
export interface ContractState {
  /** Ids of requests currently running (cancelled or closed ones stay listed until their handler returns). */
  readonly running: TransportRequestId[];
  /** `method:id` of every request whose `context.signal` aborted, in abort order. */
  readonly aborted: string[];
  /** Most `test/hold` requests that were waiting at the same time. */
  maxHeld: number;
  /** Methods of the notifications (messages without an id) the handler received, in arrival order. */
  readonly notifications: string[];
  /**
   * `method:outcome` of every server-to-client request `test/peerRequest` made, in settle order: `answered`, or the
   * code of the `TransportError` it rejected with (`closed`, `timeout`, `send_failed`).
   */
  readonly peerOutcomes: string[];
}

/** The handler and its live state (in-process tests can read `state` directly). */
export interface ContractHandler {
  /** The handler to serve with the transport under test. */
  readonly handler: MessageHandler;
  /** What the handler has seen and holds, live. */
  readonly state: ContractState;
}

type Params = Readonly<Record<string, unknown>>;

/**
 * Creates a fresh contract handler. Methods (params in braces):
 * - `test/echo {payload}` → `{echo: payload}`.
 * - `test/hold {index, count}` → `{index}`. Nothing is answered until `count` holds are waiting together; then all
 *   are answered in reverse arrival order, except index 0, which waits for `test/release`. Proves concurrency and
 *   out-of-order answers deterministically.
 * - `test/release` → `{released: true}` once index 0 of the holds was answered.
 * - `test/progress {count}` → `{sent: count}` after `count` `notifications/progress` on the request's
 *   `_meta.progressToken` (progress 1..count).
 * - `subscriptions/listen {count, end?}`: the ack, then `count` `notifications/tools/list_changed` tagged with the
 *   subscription id; then, with `end`, the complete listen result; otherwise it stays open until its signal aborts.
 * - `test/hang`: answers only after its signal aborts (an error nobody should receive).
 * - `test/state` → `{state}` (see {@link ContractState}).
 * - `test/peerRequest {method, params?, via?}` → `{reply}`: sends the server-to-client request `{method, params}`
 *   with `context.request` (or `context.session.request` when `via` is `'session'`) and answers with the client's
 *   response; `{failed: code}` when it rejected, `{failed: 'no-session'}` without a session.
 * - `test/peerNotify {notification}` → `{sent: true}` after `context.session.notify(notification)`.
 * - `test/session` → `{sessionId}`: the id of `context.session`, or null without one.
 * Any other request gets -32601; a message that is not a JSON-RPC request or notification gets -32600 with id null;
 * notifications are recorded and get no response. Never rejects.
 */
export function createContractHandler(): ContractHandler {
  const state: ContractState = { running: [], aborted: [], maxHeld: 0, notifications: [], peerOutcomes: [] };
  const methods: Methods = {
    'test/echo': async (_id, params) => ({ echo: params.payload }),
    ...holdMethods(state),
    ...notifyingMethods(),
    'test/state': async () => ({ state: JSON.parse(JSON.stringify(state)) as Params }),
    ...peerMethods(state),
  };
  return { handler: dispatcher(state, methods), state };
}

type Methods = Record<string, (id: TransportRequestId, params: Params, context: RequestContext) => Promise<Params>>;

/** `test/hold` and `test/release`, sharing the holds waiting for their count. */
function holdMethods(state: ContractState): Methods {
  const held: Array<{ index: number; answer: () => void }> = [];
  let heldCount = 0;
  let releaseFirst: (() => void) | undefined;
  let firstAnswered: Promise<void> | undefined;
  return {
    'test/hold': (_id, params) =>
      new Promise<Params>((resolve) => {
        const index = Number(params.index);
        const count = Number(params.count);
        held.push({ index, answer: () => resolve({ index }) });
        heldCount += 1;
        state.maxHeld = Math.max(state.maxHeld, heldCount);
        if (heldCount < count) return;
        const first = held.find((entry) => entry.index === 0);
        for (const entry of [...held].reverse()) if (entry !== first) entry.answer();
        held.length = 0;
        heldCount = 0;
        if (first !== undefined) {
          firstAnswered = new Promise<void>((done) => {
            releaseFirst = () => {
              first.answer();
              done();
            };
          });
        }
      }),
    'test/release': async () => {
      releaseFirst?.();
      releaseFirst = undefined;
      await firstAnswered;
      return { released: firstAnswered !== undefined };
    },
  };
}

/** The methods that notify within their request: `test/progress`, `subscriptions/listen`, `test/hang`. */
function notifyingMethods(): Methods {
  return {
    'test/progress': async (_id, params, context) => {
      const count = Number(params.count);
      const meta = params._meta as Params | undefined;
      const progressToken = meta?.[META.progressToken];
      for (let progress = 1; progress <= count; progress++) {
        context.notify({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken, progress, total: count },
        });
      }
      return { sent: count };
    },
    'subscriptions/listen': async (id, params, context) => {
      const tag = { _meta: { [META.subscriptionId]: id } };
      const ack: TransportNotification = {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: { ...tag, notifications: { toolsListChanged: true } },
      };
      context.notify(ack);
      for (let n = 0; n < Number(params.count ?? 0); n++) {
        context.notify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { ...tag, n } });
      }
      if (params.end !== true) await aborted(context.signal);
      return { resultType: 'complete', ...tag };
    },
    'test/hang': async (_id, _params, context) => {
      await aborted(context.signal);
      return { late: true };
    },
  };
}

/** The 2025-era session methods: `test/peerRequest`, `test/peerNotify`, `test/session`. */
function peerMethods(state: ContractState): Methods {
  return {
    'test/peerRequest': async (_id, params, context) => {
      const method = String(params.method);
      const message = isRecord(params.params) ? { method, params: params.params } : { method };
      const send = params.via === 'session' ? context.session?.request.bind(context.session) : context.request;
      if (send === undefined) return { failed: 'no-session' };
      try {
        const reply = await send(message);
        state.peerOutcomes.push(`${method}:answered`);
        return { reply };
      } catch (error) {
        const code = isRecord(error) && typeof error.code === 'string' ? error.code : 'unknown';
        state.peerOutcomes.push(`${method}:${code}`);
        return { failed: code };
      }
    },
    'test/peerNotify': async (_id, params, context) => {
      context.session?.notify(params.notification as TransportNotification);
      return { sent: context.session !== undefined };
    },
    'test/session': async (_id, _params, context) => ({ sessionId: context.session?.id ?? null }),
  };
}

/** The handler: checks the message, records notifications and aborts, runs the method. */
function dispatcher(state: ContractState, methods: Methods): MessageHandler {
  return async (message, context) => {
    if (!isRecord(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
      return { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' } };
    }
    const id = message.id;
    if (id === undefined) {
      state.notifications.push(message.method);
      return undefined;
    }
    if (typeof id !== 'string' && typeof id !== 'number') {
      return { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: bad id' } };
    }
    const method = methods[message.method];
    if (method === undefined) {
      return { jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${message.method}` } };
    }
    const onAbort = (): void => {
      state.aborted.push(`${message.method}:${String(id)}`);
    };
    context.signal.addEventListener('abort', onAbort, { once: true });
    state.running.push(id);
    try {
      const result = await method(id, isRecord(message.params) ? message.params : {}, context);
      return { jsonrpc: '2.0', id, result } satisfies TransportResponse;
    } finally {
      context.signal.removeEventListener('abort', onAbort);
      state.running.splice(state.running.indexOf(id), 1);
    }
  };
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
