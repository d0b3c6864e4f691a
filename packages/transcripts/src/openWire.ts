import { StdioClientTransport } from '@mcp-tasks/transport-stdio';
import { connectWebSocket } from '@mcp-tasks/transport-ws';
import { openHttpWire } from './httpWire.js';
import { socketWire } from './socketWire.js';
import type { Wire } from './wire.js';

/** Where the server under test is and how to reach it as one or two principals. */
export interface Target {
  /** `http(s)://…` (Streamable HTTP) or `ws(s)://…` (the WebSocket binding). */
  readonly url?: string | undefined;
  /** A command line that starts a stdio server (run by `sh -c`). */
  readonly stdio?: string | undefined;
  /** Bearer token of the main principal. */
  readonly token?: string | undefined;
  /** Bearer token of a second principal, for isolation checks. */
  readonly otherToken?: string | undefined;
  /** Extra headers of the main principal (HTTP requests and WebSocket upgrades), e.g. a custom auth header. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Extra headers of the second principal; giving them (or `otherToken`) configures a second principal. */
  readonly otherHeaders?: Readonly<Record<string, string>> | undefined;
}

const bearer = (token: string | undefined): Record<string, string> =>
  token === undefined ? {} : { authorization: `Bearer ${token}` };

/** Opens a wire to the target: one connection per principal for ws and stdio, plain POSTs for HTTP. */
export async function openWire(target: Target, protocolVersion: string): Promise<Wire> {
  const main: Record<string, string> = { ...target.headers, ...bearer(target.token) };
  const hasOther = target.otherToken !== undefined || target.otherHeaders !== undefined;
  const other: Record<string, string> | undefined = hasOther
    ? { ...target.otherHeaders, ...bearer(target.otherToken) }
    : undefined;
  if (target.stdio !== undefined) {
    const transport = await StdioClientTransport.spawn({ command: 'sh', args: ['-c', target.stdio], stderr: 'ignore' });
    return socketWire('stdio', transport, 'a stdio server has one principal: the process that started it');
  }
  const url = target.url ?? '';
  if (/^wss?:/.test(url)) {
    const connect = (headers: Record<string, string>) =>
      connectWebSocket(url, { ...(Object.keys(headers).length === 0 ? {} : { headers }), reconnect: false });
    const first = await connect(main);
    if (other === undefined) return socketWire('ws', first, 'no second principal configured (--other-token)');
    try {
      return socketWire('ws', first, await connect(other));
    } catch (error) {
      await first.close();
      throw error;
    }
  }
  if (/^https?:/.test(url)) return openHttpWire({ url, headers: main, otherHeaders: other, protocolVersion });
  throw new Error(`unsupported URL ${url}: use http(s)://, ws(s)://, or --stdio`);
}
