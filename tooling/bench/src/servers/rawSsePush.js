// Baseline for completion → observation: a raw node:http SSE endpoint. Each POST opens a stream; after 150–250 ms
// the server stamps the time and pushes one event with it, then ends the stream. No runtime, no store.
import { createServer } from 'node:http';
import { port, ready } from './serverKit.js';

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(':\n\n');
    setTimeout(
      () => {
        const completedAt = performance.timeOrigin + performance.now();
        res.end(`event: message\ndata: ${JSON.stringify({ completedAt })}\n\n`);
      },
      150 + Math.floor(Math.random() * 100),
    );
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port(), '127.0.0.1', () => ready({ url: `http://127.0.0.1:${server.address().port}/` }));
