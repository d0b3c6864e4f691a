/** The published transport contract, run against the WebSocket transport on 127.0.0.1:0. */
import { describeTransportContract, MessageQueue, type RawChannel } from '@mcp-tasks/transport-kit/testing';
import WebSocket from 'ws';
import { connectWebSocket } from '../src/connectWebSocket.js';
import { WebSocketServerTransport } from '../src/webSocketServerTransport.js';

describeTransportContract('WebSocket', {
  connectionSession: true,
  start: async (handler) => {
    const server = await WebSocketServerTransport.listen(handler, { heartbeatMs: 0 });
    const client = await connectWebSocket(server.url, { reconnect: false });
    return {
      client,
      openRaw: () => rawWebSocket(server.url),
      // Closing the server closes every socket (1001); without reconnection the client is closed for good.
      dropServer: () => server.close(),
      close: async () => {
        await client.close();
        await server.close();
      },
    };
  },
});

/** A bare socket: the transport's own client never sends malformed frames. */
async function rawWebSocket(url: string): Promise<RawChannel> {
  const socket = new WebSocket(url, ['mcp']);
  const queue = new MessageQueue();
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', () => reject(new Error(`Could not open ${url}`)));
  });
  socket.on('message', (data) => queue.push(JSON.parse(String(data))));
  return {
    send: async (text) => socket.send(text),
    next: () => queue.next(),
    close: async () => {
      socket.close(1000);
      await closed;
    },
  };
}
