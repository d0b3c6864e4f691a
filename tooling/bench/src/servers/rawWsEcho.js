// Baseline: a raw `ws` JSON echo on subprotocol `mcp`: parse each text frame, answer a result of the same size as
// ours (BENCH_ECHO_RESULT) with the request's id.
import { WebSocketServer } from 'ws';
import { echoTemplate, port, ready } from './serverKit.js';

const result = echoTemplate();
const wss = new WebSocketServer({ host: '127.0.0.1', port: port(), path: '/mcp', handleProtocols: () => 'mcp' });
wss.on('connection', (socket) => {
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString('utf8'));
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  });
});
wss.on('listening', () => ready({ url: `ws://127.0.0.1:${wss.address().port}/mcp` }));
