/** The transport contract's lifecycle checks: closing by the client, the peer going away, malformed frames. */
import { TransportError } from '@mcp-tasks/protocol';
import { expect, it, vi } from 'vitest';
import { contractRequest, expectClosedError, hasSettled, resultOf, stateOf } from './contractRequests.js';
import type { OpenTransport, SkipContext } from './transportUnderTest.js';

export function lifecycleContract(open: OpenTransport): void {
  it('close() is idempotent and fails in-flight and later requests with TransportError("closed")', () =>
    idempotentClose(open));
  it('closed stays pending while the connection is open and resolves as a local close after close()', () =>
    localClose(open));
  it('closed resolves as a remote close when the server goes away, failing in-flight requests', (context) =>
    remoteClose(open, context));
  it('answers malformed frames with a JSON-RPC error and keeps working', (context) => malformedFrames(open, context));
}

async function idempotentClose(open: OpenTransport): Promise<void> {
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
}

async function localClose(open: OpenTransport): Promise<void> {
  const { client } = await open();
  expect(resultOf(await client.request(contractRequest('test/echo', { payload: 1 })))).toEqual({ echo: 1 });
  expect(await hasSettled(client.closed)).toBe(false);
  await client.close();
  expect(await hasSettled(client.closed)).toBe(true);
  expect(await client.closed).toMatchObject({ initiator: 'local' });
  // A second close() does not change what was reported.
  await client.close();
  expect(await client.closed).toMatchObject({ initiator: 'local' });
}

async function remoteClose(open: OpenTransport, context: SkipContext): Promise<void> {
  const { client, dropServer } = await open();
  if (dropServer === undefined) {
    context.skip('not applicable: start() returned no dropServer (the client cannot see the server go away)');
    return;
  }
  const hang = contractRequest('test/hang');
  const failure = client.request(hang).catch((error: unknown) => error);
  await vi.waitFor(async () => expect((await stateOf(client)).running).toContain(hang.id));
  await dropServer();
  const closed = await client.closed;
  expect(closed.initiator).toBe('remote');
  expect(closed.error).toBeInstanceOf(TransportError);
  expect(closed.error).toMatchObject({ code: 'closed' });
  expectClosedError(await failure);
  expectClosedError(await client.request(contractRequest('test/echo')).catch((error: unknown) => error));
  // Closing afterwards is still fine and does not rewrite what happened.
  await client.close();
  expect(await client.closed).toMatchObject({ initiator: 'remote' });
}

async function malformedFrames(open: OpenTransport, context: SkipContext): Promise<void> {
  const { client, openRaw } = await open();
  if (openRaw === undefined) {
    context.skip('not applicable: start() returned no openRaw (the transport has no frames to corrupt)');
    return;
  }
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
}
