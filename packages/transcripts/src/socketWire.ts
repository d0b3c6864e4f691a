import type { ClientTransport } from '@mcp-tasks/protocol';
import type { Wire } from './wire.js';

/**
 * A wire over one of the package's message transports (WebSocket, stdio): they carry each JSON-RPC message as it
 * is and route notifications to their request. `other` is a second connection (with the second credential), or
 * undefined with the reason it cannot exist.
 */
export function socketWire(kind: 'ws' | 'stdio', main: ClientTransport, other: ClientTransport | string): Wire {
  let nextId = 1;
  return {
    kind,
    otherUnavailable: typeof other === 'string' ? other : undefined,
    async request(message, options) {
      const transport = options.as === 'other' && typeof other !== 'string' ? other : main;
      const id = nextId++;
      try {
        const response = await transport.request(
          { jsonrpc: '2.0', id, method: message.method, params: message.params as Record<string, unknown> },
          {
            ...(options.onNotification === undefined ? {} : { onNotification: options.onNotification }),
            ...(options.signal === undefined ? {} : { signal: options.signal }),
          },
        );
        return { response: response as unknown as Record<string, unknown> };
      } catch (error) {
        if (options.signal?.aborted === true) return { response: undefined };
        throw error;
      }
    },
    async close() {
      await Promise.all([main.close(), typeof other === 'string' ? undefined : other.close()]);
    },
  };
}
