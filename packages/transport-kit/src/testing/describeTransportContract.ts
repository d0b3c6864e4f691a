/**
 * The transport contract: what every mcp-tasks transport (a `ClientTransport` and the server side that feeds a
 * `MessageHandler`) must do, as one vitest suite a transport registers with a single call.
 */
import { afterEach, describe } from 'vitest';
import { createContractHandler } from './contractHandler.js';
import { exchangeContract } from './exchangeContract.js';
import { lifecycleContract } from './lifecycleContract.js';
import { peerContract } from './peerContract.js';
import type { OpenedTransport, OpenTransport, TransportContractOptions } from './transportUnderTest.js';

/**
 * Registers the transport contract suite (vitest `describe`/`it`) for the transport `options.start` starts:
 * 100 concurrent requests answered out of order, 1 MiB messages each way, request-scoped notifications in order
 * and before their response, listen streams ended by either side, cancellation by abort, client notifications,
 * close semantics (idempotent `close()`, `TransportError('closed')`, the `closed` signal for a local close and
 * for the peer going away) and malformed frames answered with JSON-RPC errors. With `connectionSession`, also the
 * 2025-era session on the connection: server-to-client requests answered through the client's peer handler (or
 * `-32601` without one), `session.notify` reaching it, one session per connection, server requests withdrawn when
 * their client request is cancelled and rejected when the connection closes, and stray responses dropped.
 *
 * @example
 * describeTransportContract('my transport', {
 *   start: async (handler) => {
 *     const server = await MyServer.listen(handler, { port: 0, host: '127.0.0.1' });
 *     const client = await MyClient.connect(server.url);
 *     return { client, close: async () => { await client.close(); await server.close(); } };
 *   },
 * });
 */
export function describeTransportContract(name: string, options: TransportContractOptions): void {
  describe(`transport contract: ${name}`, () => {
    const started: Array<() => Promise<void>> = [];
    const open: OpenTransport = async () => {
      const { handler, state } = createContractHandler();
      let inProcess = false;
      const underTest = await options.start((message, context) => {
        inProcess = true;
        return handler(message, context);
      });
      let closing: Promise<void> | undefined;
      started.push(() => {
        closing ??= underTest.close();
        return closing;
      });
      const opened: OpenedTransport = {
        client: underTest.client,
        close: () => underTest.close(),
        openRaw: underTest.openRaw?.bind(underTest),
        dropServer: underTest.dropServer?.bind(underTest),
        get state() {
          return inProcess ? state : undefined;
        },
      };
      return opened;
    };
    afterEach(async () => {
      await Promise.all(started.splice(0).map((close) => close()));
    });
    exchangeContract(open);
    lifecycleContract(open);
    peerContract(open, options.connectionSession === true);
  });
}
