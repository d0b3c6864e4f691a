/** The transport contract's message checks: concurrency, size, notifications, listen streams, cancellation. */
import { META, type TransportNotification, type TransportResponse } from '@mcp-tasks/protocol';
import { expect, it, vi } from 'vitest';
import { contractMeta, contractRequest, resultOf, stateOf } from './contractRequests.js';
import type { OpenTransport } from './transportUnderTest.js';

export function exchangeContract(open: OpenTransport): void {
  it('answers 100 concurrent requests out of order, each matched to its own id', () => concurrentRequests(open));
  it('carries a 1 MiB message each way intact (multi-byte UTF-8, escapes, newlines)', () => largeMessages(open));
  it('delivers notifications scoped to their request, in order, before its response', () => scopedNotifications(open));
  it('keeps a listen stream open: ack first, tagged notifications, ended by the client or by the server', () =>
    listenStreams(open));
  it('cancels one request on abort and keeps serving the others', () => cancelOnAbort(open));
  it('hands client notifications to the handler without answering them', () => clientNotifications(open));
}

async function concurrentRequests(open: OpenTransport): Promise<void> {
  const { client } = await open();
  const count = 100;
  const settled: number[] = [];
  const requests = Array.from({ length: count }, (_, index) => contractRequest('test/hold', { index, count }));
  const calls = requests.map((request, index) =>
    client.request(request).then((response) => {
      settled.push(index);
      return response;
    }),
  );
  // Every hold but index 0 is answered once all 100 waited together on the server.
  const rest = await Promise.all(calls.slice(1));
  rest.forEach((response, i) => {
    expect(response.id).toBe(requests[i + 1]?.id);
    expect(resultOf(response)).toEqual({ index: i + 1 });
  });
  expect(settled).not.toContain(0);
  expect(resultOf(await client.request(contractRequest('test/release')))).toEqual({ released: true });
  expect(resultOf(await (calls[0] as Promise<TransportResponse>))).toEqual({ index: 0 });
  // The first request issued was answered last.
  expect(settled.at(-1)).toBe(0);
  expect((await stateOf(client)).maxHeld).toBe(count);
}

async function largeMessages(open: OpenTransport): Promise<void> {
  const { client } = await open();
  const unit = 'ab\u00e9\ud83d\ude00"\\\n\t\u2028{}';
  const payload = unit.repeat(Math.ceil((1024 * 1024) / unit.length)).slice(0, 1024 * 1024);
  const request = contractRequest('test/echo', { payload });
  const response = await client.request(request);
  expect(response.id).toBe(request.id);
  expect((resultOf(response).echo as string).length).toBe(payload.length);
  expect(resultOf(response).echo === payload).toBe(true);
}

async function scopedNotifications(open: OpenTransport): Promise<void> {
  const { client } = await open();
  const run = async (token: string, count: number) => {
    const events: Array<TransportNotification | 'response'> = [];
    const response = await client.request(
      contractRequest('test/progress', { count, _meta: { [META.progressToken]: token } }),
      { onNotification: (notification) => events.push(notification) },
    );
    events.push('response');
    expect(resultOf(response)).toEqual({ sent: count });
    return events;
  };
  const [a, b] = await Promise.all([run('token-a', 20), run('token-b', 7)]);
  for (const [events, token, count] of [
    [a, 'token-a', 20],
    [b, 'token-b', 7],
  ] as const) {
    expect(events).toHaveLength(count + 1);
    expect(events.at(-1)).toBe('response');
    expect(events.slice(0, -1).map((n) => (n as TransportNotification).params)).toEqual(
      Array.from({ length: count }, (_, i) => ({ progressToken: token, progress: i + 1, total: count })),
    );
  }
}

async function listenStreams(open: OpenTransport): Promise<void> {
  const { client } = await open();
  const seen: TransportNotification[] = [];
  const controller = new AbortController();
  const listen = contractRequest('subscriptions/listen', { count: 3 });
  const open_ = client.request(listen, { signal: controller.signal, onNotification: (n) => seen.push(n) });
  const outcome = open_.then(
    () => 'resolved',
    () => 'rejected',
  );
  await vi.waitFor(() => expect(seen).toHaveLength(4));
  expect(seen.map((n) => n.method)).toEqual([
    'notifications/subscriptions/acknowledged',
    'notifications/tools/list_changed',
    'notifications/tools/list_changed',
    'notifications/tools/list_changed',
  ]);
  for (const n of seen) expect(n.params?._meta).toEqual({ [META.subscriptionId]: listen.id });
  // The stream stays open while the server has nothing more to say.
  expect((await stateOf(client)).running).toContain(listen.id);
  controller.abort(new Error('done listening'));
  expect(await outcome).toBe('rejected');
  await vi.waitFor(async () => expect((await stateOf(client)).aborted).toContain(`subscriptions/listen:${listen.id}`));

  const ended: TransportNotification[] = [];
  const finite = contractRequest('subscriptions/listen', { count: 2, end: true });
  const response = await client.request(finite, { onNotification: (n) => ended.push(n) });
  expect(resultOf(response)).toEqual({ resultType: 'complete', _meta: { [META.subscriptionId]: finite.id } });
  expect(ended.slice(0, 3).map((n) => n.method)).toEqual([
    'notifications/subscriptions/acknowledged',
    'notifications/tools/list_changed',
    'notifications/tools/list_changed',
  ]);
}

async function cancelOnAbort(open: OpenTransport): Promise<void> {
  const { client } = await open();
  const controller = new AbortController();
  const hang = contractRequest('test/hang');
  const pending = client.request(hang, { signal: controller.signal });
  await vi.waitFor(async () => expect((await stateOf(client)).running).toContain(hang.id));
  const reason = new Error('user gave up');
  controller.abort(reason);
  await expect(pending).rejects.toBe(reason);
  await vi.waitFor(async () => expect((await stateOf(client)).aborted).toContain(`test/hang:${hang.id}`));
  expect(resultOf(await client.request(contractRequest('test/echo', { payload: 1 })))).toEqual({ echo: 1 });
}

async function clientNotifications(open: OpenTransport): Promise<void> {
  const { client } = await open();
  await client.notify({ jsonrpc: '2.0', method: 'notifications/test/ping', params: { _meta: contractMeta() } });
  await vi.waitFor(async () => expect((await stateOf(client)).notifications).toContain('notifications/test/ping'));
}
