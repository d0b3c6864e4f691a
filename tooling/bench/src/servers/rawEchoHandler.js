/**
 * The least a node:http JSON-RPC endpoint can do, as a request handler: read the body, parse it, answer `result`
 * with the request's id. The raw echo baseline of `pnpm bench` and the reference path of `tooling/perf-guard`.
 */
export function rawEchoHandler(result) {
  return (req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  };
}
