// Our client (@mcp-tasks/client) as the interop suites set it up: one client per `describe` block, on a transport
// to a freshly started server, answering every elicitation with a confirmation.
import { McpClient } from '@mcp-tasks/client';
import type { ClientTransport } from '@mcp-tasks/protocol';
import { afterAll, beforeAll } from 'vitest';

export const CLIENT_INFO = { name: 'mcp-tasks-interop', version: '0.0.0' };

/** A transport to a fresh server, and how to stop that server (stdio: closing the transport does). */
export type Connect = () => Promise<{ transport: ClientTransport; stop?: () => Promise<void> }>;

/** The suite's client (available inside tests) and the params of every elicitation it answered, in order. */
export interface OurClientSuite {
  readonly mcp: McpClient;
  readonly elicited: readonly unknown[];
}

/**
 * Registers `beforeAll`/`afterAll` hooks that connect our client through `connect` and close it (then the server).
 * The client accepts every elicitation with `{ confirm: true }`.
 */
export function ourClientPerSuite(connect: Connect): OurClientSuite {
  let client: McpClient | undefined;
  let stop: (() => Promise<void>) | undefined;
  const elicited: unknown[] = [];
  beforeAll(async () => {
    const connected = await connect();
    stop = connected.stop;
    client = new McpClient({
      transport: connected.transport,
      clientInfo: CLIENT_INFO,
      handlers: {
        elicitation: async (params) => {
          elicited.push(params);
          return { action: 'accept', content: { confirm: true } };
        },
      },
    });
  });
  afterAll(async () => {
    await client?.close();
    await stop?.();
  });
  return {
    get mcp() {
      if (client === undefined) throw new Error('the client exists only inside tests (beforeAll has not run)');
      return client;
    },
    elicited,
  };
}
