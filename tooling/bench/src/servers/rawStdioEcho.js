// Baseline: a raw NDJSON echo child: split stdin into lines, parse each, write a result of the same size as ours
// (BENCH_ECHO_RESULT) with the request's id as one line.
import { echoTemplate, ready } from './serverKit.js';

const result = echoTemplate();
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const lines = (pending + chunk).split('\n');
  pending = lines.pop();
  for (const line of lines) {
    if (line === '') continue;
    const message = JSON.parse(line);
    // One write per message, as a transport that answers each request when it is done must do.
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n`);
  }
});
ready();
