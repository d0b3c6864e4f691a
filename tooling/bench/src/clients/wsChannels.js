import WebSocket from 'ws';

/** Opens `count` WebSocket connections (subprotocol `mcp`) to `url` as closed-loop channels. */
export async function openWsChannels(url, count) {
  const sockets = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolve, reject) => {
          const socket = new WebSocket(url, 'mcp', { perMessageDeflate: false });
          socket.once('open', () => resolve(socket));
          socket.once('error', reject);
        }),
    ),
  );
  let handlers = [];
  const channels = sockets.map((socket, index) => {
    socket.on('message', (data) => handlers[index]?.(data.toString('utf8')));
    return {
      send: (text) => socket.send(text),
      onMessage: (callback) => {
        handlers[index] = callback;
      },
    };
  });
  return {
    channels,
    /** Drops the callbacks of the previous run (ids are unique per run). */
    reset: () => {
      handlers = [];
    },
    close: () =>
      Promise.all(sockets.map((socket) => new Promise((done) => socket.close() || socket.once('close', done)))),
  };
}
