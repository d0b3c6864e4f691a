/**
 * The types of the transport contract suite: how it starts the transport under test and what the checks get. Kept
 * apart from the suite so that its parts (`exchangeContract`, `lifecycleContract`, `peerContract`) import them
 * without importing the suite that imports them.
 */
import type { ClientTransport, MessageHandler } from '@mcp-tasks/protocol';
import type { ContractState } from './contractHandler.js';

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

/** The part of a vitest test context the checks use: marking a check not applicable to the transport. */
export interface SkipContext {
  skip(note: string): void;
}
