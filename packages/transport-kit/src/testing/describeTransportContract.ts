/**
 * The transport contract: what every mcp-tasks transport (a `ClientTransport` and the server side that feeds a
 * `MessageHandler`) must do, as one vitest suite a transport registers with a single call.
 */
import type { ClientTransport, MessageHandler } from '@mcp-tasks/protocol';
import { afterEach, describe } from 'vitest';
import { type ContractState, createContractHandler } from './contractHandler.js';
import { exchangeContract } from './exchangeContract.js';
import { lifecycleContract } from './lifecycleContract.js';
import { peerContract } from './peerContract.js';

/** A low-level channel to the server, for frames a well-behaved client never sends. */
export interface RawChannel {
  /** Sends `text` as one frame (a line, a text frame, a POST body). */
  send(text: string): Promise<void>;
  /** Resolves with the next message the server sent on this channel, parsed. */
  next(): Promise<unknown>;
  /** Closes the channel and whatever it opened. */
  close(): Promise<void>;
}

/** One running server of the transport under test and a client connected to it, as `start` returns them. */
export interface TransportUnderTest {
  /** The transport's client, connected to a server that serves the handler `start` was given. */
  readonly client: ClientTransport;
  /** Releases everything `start` opened (client, server, processes, ports). Called once after each test. */
  close(): Promise<void>;
  /**
   * Opens a raw channel to the same server (a new connection, process or POST per frame) for the malformed-frame
   * check. Omit it when the transport has no frames to corrupt (an in-memory link); that check is then skipped.
   */
  openRaw?(): Promise<RawChannel>;
  /**
   * Makes the server side go away without telling the client (stop the server, kill its process), for the check
   * that `client.closed` reports a remote close. Omit it when the client cannot detect that (Streamable HTTP has
   * no connection to lose); that check is then skipped.
   */
  dropServer?(): Promise<void>;
}

/** How the suite starts the transport under test. */
export interface TransportContractOptions {
  /**
   * Serves `handler` with a fresh server of the transport and connects the transport's client to it. Called once
   * per test. A server that must run in another process (stdio) serves `createContractHandler().handler` there
   * instead; the suite reads everything it checks over the transport itself (`test/state`).
   */
  start(handler: MessageHandler): Promise<TransportUnderTest>;
  /**
   * The connection is a 2025-era session (stdio, WebSocket): every message carries `context.session`, the server
   * can send requests and notifications on it, and the client implements `setPeerHandler`. Enables the session
   * checks; without it they are reported as skipped. @default false
   */
  readonly connectionSession?: boolean;
}

/** A started transport as the checks see it. */
export interface OpenedTransport extends TransportUnderTest {
  /** The contract handler's live state when `start` served the suite's handler in this process. */
  readonly state: ContractState | undefined;
}

/** Starts one transport for the current test; the suite closes it after the test. */
export type OpenTransport = () => Promise<OpenedTransport>;

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
