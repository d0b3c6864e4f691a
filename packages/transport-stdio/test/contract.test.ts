/**
 * The published transport contract, run against the stdio transport: the server is a child process
 * (test/fixtures/contractStdioServer.mjs) serving the contract handler with `serveStdio`.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describeTransportContract, MessageQueue, type RawChannel } from '@mcp-tasks/transport-kit/testing';
import { StdioClientTransport } from '../src/index.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/contractStdioServer.mjs', import.meta.url));

describeTransportContract('stdio', {
  connectionSession: true,
  // The handler runs in the child process, which builds its own contract handler.
  start: async () => {
    const client = await StdioClientTransport.spawn({ command: process.execPath, args: [FIXTURE], stderr: 'pipe' });
    // Drain stderr so a chatty child can never block on a full pipe.
    client.stderr?.resume();
    return {
      client,
      openRaw: async () => rawStdio(),
      dropServer: async () => {
        process.kill(client.pid as number, 'SIGKILL');
        await client.exited;
      },
      close: async () => {
        // close() ends stdin and resolves once the child exited (SIGTERM/SIGKILL after the grace period).
        await client.close();
        await client.exited;
      },
    };
  },
});

/** A second server process, spoken to line by line. */
function rawStdio(): RawChannel {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [FIXTURE], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.resume();
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const queue = new MessageQueue();
  let buffered = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf('\n');
    while (newline !== -1) {
      queue.push(JSON.parse(buffered.slice(0, newline)));
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
    }
  });
  return {
    send: (text) =>
      new Promise<void>((resolve, reject) =>
        child.stdin.write(`${text}\n`, (error) => (error ? reject(error) : resolve())),
      ),
    next: () => queue.next(),
    close: async () => {
      // serveStdio exits on stdin EOF.
      child.stdin.end();
      await exited;
    },
  };
}
