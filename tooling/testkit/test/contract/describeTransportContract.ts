/**
 * The transport contract (issue 6), shared by every transport: one `describe` block per transport, run against the
 * testkit contract handler (`createContractHandler`) served by that transport.
 *
 * Lives under test/ rather than src/: it imports vitest, and exporting it from the package would make vitest a
 * runtime dependency of testkit's dist while no other package can consume it anyway (the transports cannot depend
 * on testkit, which depends on them).
 */
import {
  type ClientTransport,
  LATEST_PROTOCOL_VERSION,
  META,
  TransportError,
  type TransportNotification,
  type TransportRequest,
  type TransportResponse,
} from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContractState } from '../../src/index.js';

/** A low-level channel to the server for frames a well-behaved client never sends. */
export interface RawChannel {
  /** Sends `text` as one frame (a line, a text frame, a POST body). */
  send(text: string): Promise<void>;
  /** Resolves with the next message the server sent on this channel, parsed. */
  next(): Promise<unknown>;
  close(): Promise<void>;
}

/** A client transport connected to a server transport that serves the contract handler. */
export interface ContractPair {
  readonly client: ClientTransport;
  /** The handler's live state when it runs in this process (HTTP, WebSocket); undefined for a child process. */
  readonly state?: ContractState;
  /** Opens a raw channel to the same server (a new connection, process or POST per frame). */
  openRaw(): Promise<RawChannel>;
  /** Releases everything the pair opened (client, server, processes). Idempotent. */
  teardown(): Promise<void>;
}

export type MakePair = () => Promise<ContractPair>;

let nextId = 0;
const meta = (extra: Record<string, unknown> = {}) => ({ [META.protocolVersion]: LATEST_PROTOCOL_VERSION, ...extra });

/** A request with a fresh id and the `_meta` HTTP needs for its `MCP-Protocol-Version` header. */
export function contractRequest(method: string, params: Record<string, unknown> = {}): TransportRequest {
  nextId += 1;
  return {
    jsonrpc: '2.0',
    id: `c${nextId}`,
    method,
    params: { ...params, _meta: meta(params._meta as Record<string, unknown> | undefined) },
  };
}

function resultOf(response: TransportResponse): Record<string, unknown> {
  if (!('result' in response)) throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  return response.result;
}

async function stateOf(client: ClientTransport): Promise<ContractState> {
  return resultOf(await client.request(contractRequest('test/state'))).state as ContractState;
}

function expectClosedError(error: unknown): void {
  expect(error).toBeInstanceOf(TransportError);
  expect(error).toMatchObject({ name: 'TransportError', code: 'closed' });
}

/** Runs the transport contract against the pairs `makePair` creates (one per test, torn down after it). */
export function describeTransportContract(name: string, makePair: MakePair): void {
  describe(`transport contract: ${name}`, () => {
    const pairs: ContractPair[] = [];
    const open = async (): Promise<ContractPair> => {
      const pair = await makePair();
      pairs.push(pair);
      return pair;
    };
    afterEach(async () => {
      await Promise.all(pairs.splice(0).map((pair) => pair.teardown()));
    });

    it('answers 100 concurrent requests out of order, each matched to its own id', async () => {
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
    });

    it('carries a 1 MiB message each way intact (multi-byte UTF-8, escapes, newlines)', async () => {
      const { client } = await open();
      const unit = 'ab\u00e9\ud83d\ude00"\\\n\t\u2028{}';
      const payload = unit.repeat(Math.ceil((1024 * 1024) / unit.length)).slice(0, 1024 * 1024);
      const request = contractRequest('test/echo', { payload });
      const response = await client.request(request);
      expect(response.id).toBe(request.id);
      expect((resultOf(response).echo as string).length).toBe(payload.length);
      expect(resultOf(response).echo === payload).toBe(true);
    });

    it('delivers notifications scoped to their request, in order, before its response', async () => {
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
    });

    it('keeps a listen stream open: ack first, tagged notifications, ended by the client or by the server', async () => {
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
      await vi.waitFor(async () =>
        expect((await stateOf(client)).aborted).toContain(`subscriptions/listen:${listen.id}`),
      );

      const ended: TransportNotification[] = [];
      const finite = contractRequest('subscriptions/listen', { count: 2, end: true });
      const response = await client.request(finite, { onNotification: (n) => ended.push(n) });
      expect(resultOf(response)).toEqual({ resultType: 'complete', _meta: { [META.subscriptionId]: finite.id } });
      expect(ended.slice(0, 3).map((n) => n.method)).toEqual([
        'notifications/subscriptions/acknowledged',
        'notifications/tools/list_changed',
        'notifications/tools/list_changed',
      ]);
    });

    it('cancels one request on abort and keeps serving the others', async () => {
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
    });

    it('close() is idempotent and fails in-flight and later requests with TransportError("closed")', async () => {
      const { client, state } = await open();
      const hang = contractRequest('test/hang');
      const pending = client.request(hang);
      const failure = pending.catch((error: unknown) => error);
      await vi.waitFor(async () => expect((await stateOf(client)).running).toContain(hang.id));
      await Promise.all([client.close(), client.close()]);
      await client.close();
      expectClosedError(await failure);
      expectClosedError(await client.request(contractRequest('test/echo')).catch((error: unknown) => error));
      // In-process servers let us see the other side: the closed connection aborted the handler's signal.
      if (state !== undefined) await vi.waitFor(() => expect(state.aborted).toContain(`test/hang:${hang.id}`));
    });

    it('answers malformed frames with a JSON-RPC error and keeps working', async () => {
      const { client, openRaw } = await open();
      const raw = await openRaw();
      try {
        await raw.send('{"jsonrpc":"2.0","id":1,"method"');
        const parseError = (await raw.next()) as Record<string, unknown>;
        expect(parseError).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
        // The 2026-07-28 schema types an error's id as an optional string | integer: unreadable means omitted.
        expect(parseError).not.toHaveProperty('id');

        // No batching in 2026-07-28: an array is not a message.
        await raw.send('[{"jsonrpc":"2.0","id":2,"method":"test/echo"}]');
        const invalid = (await raw.next()) as Record<string, unknown>;
        expect(invalid).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
        expect(invalid).not.toHaveProperty('id');

        // The same channel still works.
        const after = contractRequest('test/echo', { payload: 'still here' });
        await raw.send(JSON.stringify(after));
        expect(await raw.next()).toEqual({ jsonrpc: '2.0', id: after.id, result: { echo: 'still here' } });
      } finally {
        await raw.close();
      }
      expect(resultOf(await client.request(contractRequest('test/echo', { payload: 2 })))).toEqual({ echo: 2 });
    });

    it('hands client notifications to the handler without answering them', async () => {
      const { client } = await open();
      await client.notify({ jsonrpc: '2.0', method: 'notifications/test/ping', params: { _meta: meta() } });
      await vi.waitFor(async () => expect((await stateOf(client)).notifications).toContain('notifications/test/ping'));
    });
  });
}
