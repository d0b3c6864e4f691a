import type { MessageHandler, TransportRequestId, TransportResponse } from '@mcp-tasks/protocol';

const SUB = 'io.modelcontextprotocol/subscriptionId';

interface Params {
  key?: unknown;
  steps?: number;
  size?: number;
  count?: number;
  _meta?: { progressToken?: string | number };
}

/**
 * A fake runtime. Methods: echo, hang (pending until aborted), wait/release (out-of-order completion), progress,
 * subscriptions/listen (ack, `count` notifications, then pending until aborted unless `count` is given), spam
 * (notifies `size`-byte notifications until aborted), burst (`count` notifications of `size` bytes, then answers). Records principals, notifications and aborts.
 */
export function fakeHandler() {
  const waiters = new Map<unknown, () => void>();
  const abortWaiters = new Map<TransportRequestId, (reason: unknown) => void>();
  const aborted = new Map<TransportRequestId, unknown>();
  const notifications: string[] = [];

  const whenAborted = (id: TransportRequestId): Promise<unknown> =>
    aborted.has(id) ? Promise.resolve(aborted.get(id)) : new Promise((resolve) => abortWaiters.set(id, resolve));

  const handler: MessageHandler = async (message, context) => {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      return { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' } };
    }
    const { id, method, params = {} } = message as { id?: TransportRequestId; method: string; params?: Params };
    if (id === undefined) {
      notifications.push(method);
      return undefined;
    }
    const ok = (result: Record<string, unknown>): TransportResponse => ({ jsonrpc: '2.0', id, result });
    const untilAborted = () =>
      new Promise<void>((resolve) => {
        const onAbort = () => {
          aborted.set(id, context.signal.reason);
          abortWaiters.get(id)?.(context.signal.reason);
          resolve();
        };
        if (context.signal.aborted) onAbort();
        else context.signal.addEventListener('abort', onAbort, { once: true });
      });
    switch (method) {
      case 'echo':
        return ok({ echo: params, principal: context.principal ?? null });
      case 'hang':
        await untilAborted();
        return ok({ late: true });
      case 'wait':
        await new Promise<void>((resolve) => waiters.set(params.key, resolve));
        return ok({ waited: params.key });
      case 'release':
        waiters.get(params.key)?.();
        return ok({ released: params.key });
      case 'progress':
        for (let i = 1; i <= (params.steps ?? 0); i++) {
          context.notify({
            jsonrpc: '2.0',
            method: 'notifications/progress',
            params: { progressToken: params._meta?.progressToken, progress: i },
          });
        }
        return ok({ done: true });
      case 'burst':
        for (let i = 0; i < (params.count ?? 0); i++) {
          context.notify({
            jsonrpc: '2.0',
            method: 'notifications/message',
            params: { level: 'info', data: { i, pad: 'x'.repeat(params.size ?? 1) } },
          });
        }
        return ok({ sent: params.count });
      case 'spam': {
        const blob = 'x'.repeat(params.size ?? 1);
        while (!context.signal.aborted) {
          context.notify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: blob } });
          await new Promise((resolve) => setImmediate(resolve));
        }
        await untilAborted();
        return ok({});
      }
      case 'subscriptions/listen': {
        const meta = { [SUB]: id };
        context.notify({
          jsonrpc: '2.0',
          method: 'notifications/subscriptions/acknowledged',
          params: { _meta: meta, notifications: {} },
        });
        for (let i = 0; i < (params.count ?? 0); i++) {
          context.notify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: meta } });
        }
        if (params.count === undefined) await untilAborted();
        return ok({ resultType: 'complete', _meta: meta });
      }
      default:
        return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
    }
  };
  return { handler, whenAborted, notifications };
}
