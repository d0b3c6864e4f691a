// Baseline: bare express 5 with express.json(), answering a result of the same size as ours.
import express from 'express';
import { echoTemplate, port, ready } from './serverKit.js';

const result = echoTemplate();
const app = express();
app.use(express.json());
app.post('/mcp', (req, res) => {
  res.json({ jsonrpc: '2.0', id: req.body.id, result });
});
const server = app.listen(port(), '127.0.0.1', () => ready({ url: `http://127.0.0.1:${server.address().port}/mcp` }));
server.keepAliveTimeout = 60_000;
