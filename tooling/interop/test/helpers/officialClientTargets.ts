// Ways to reach our tool server with the official client: over Streamable HTTP (spawned CLI on port 0) and over
// stdio (the official StdioClientTransport spawns the CLI itself).
import type { Client } from '@modelcontextprotocol/client';
import { type OfficialClientOptions, officialClientOverHttp, officialClientOverStdio } from './officialClient.js';
import { startToolServerHttp, TOOL_SERVER_MAIN, type ToolSet, toolServerArgs } from './toolServer.js';

/** A tool server plus a way to connect official clients to it. */
export interface OfficialTarget {
  /** Connects a new official client; the target closes it in {@link close}. */
  connect(options?: OfficialClientOptions): Promise<Client>;
  /** Closes every client, then the server (if the target started one). */
  close(): Promise<void>;
}

/** Starts a target for one `describe` block: spawn processes once, share them across its tests. */
export type OfficialTargetFactory = (tools: ToolSet) => Promise<OfficialTarget>;

function target(connectOne: (options: OfficialClientOptions) => Promise<Client>, stopServer?: () => Promise<void>) {
  const clients: Client[] = [];
  return {
    async connect(options: OfficialClientOptions = {}) {
      const client = await connectOne(options);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.splice(0).map((client) => client.close()));
      await stopServer?.();
    },
  };
}

const overHttp: OfficialTargetFactory = async (tools) => {
  const server = await startToolServerHttp(tools);
  return target((options) => officialClientOverHttp(server.url, options), server.close);
};

const overStdio: OfficialTargetFactory = async (tools) => {
  const [, ...args] = toolServerArgs('stdio', tools);
  // Each stdio client spawns (and on close ends) its own server process.
  return target((options) => officialClientOverStdio(TOOL_SERVER_MAIN, args, options));
};

/** Both transports, for `describe.each`. */
export const OFFICIAL_TARGETS: ReadonlyArray<readonly [string, OfficialTargetFactory]> = [
  ['Streamable HTTP', overHttp],
  ['stdio', overStdio],
];
