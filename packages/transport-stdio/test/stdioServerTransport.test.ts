import { PassThrough, Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_OUTPUT_HIGH_WATER_MARK, StdioServerTransport } from '../src/stdioServerTransport.js';
import { RawServer, textUntil } from './helpers.js';

const servers: RawServer[] = [];
function start(env?: Record<string, string>): RawServer {
  const server = new RawServer(env);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.kill()));
});

const echo = (id: number, params: object = {}) => ({ jsonrpc: '2.0', id, method: 'echo', params });

describe('StdioServerTransport (real child process)', () => {
  it('answers a malformed line with -32700 and no id, then keeps serving', async () => {
    const server = start();
    server.write('{"jsonrpc": "2.0", oops\n');
    expect(await server.next()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: expect.any(String) },
    });
    server.send(echo(1));
    expect(await server.next()).toMatchObject({ id: 1, result: { echo: {} } });
  });

  it('rejects an over-long line with -32600 (no id) without buffering it, then keeps serving', async () => {
    const server = start({ MAX_LINE_BYTES: '1024' });
    server.send(echo(1, { blob: 'x'.repeat(4096) }));
    const overflow = await server.next();
    expect(overflow).toMatchObject({ error: { code: -32600, data: { maxLineBytes: 1024 } } });
    expect(overflow).not.toHaveProperty('id');
    server.send(echo(2));
    expect(await server.next()).toMatchObject({ id: 2, result: {} });
  });

  it('refuses a line of invalid UTF-8 with -32700 (never repaired into U+FFFD), then keeps serving', async () => {
    const server = start();
    server.write(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":1,"method":"echo","params":{"s":"'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}}\n'),
      ]),
    );
    expect(await server.next()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: the message is not valid UTF-8' },
    });
    server.send(echo(2, { s: 'é' }));
    expect(await server.next()).toMatchObject({ id: 2, result: { echo: { s: 'é' } } });
  });

  it('refuses a 100,000-deep message with -32602 carrying its id, then keeps serving', async () => {
    const server = start();
    const depth = 100_000;
    server.write(`{"jsonrpc":"2.0","id":5,"method":"echo","params":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}\n`);
    expect(await server.next()).toMatchObject({ id: 5, error: { code: -32602, data: { maxDepth: 64 } } });
    server.send(echo(6));
    expect(await server.next()).toMatchObject({ id: 6, result: {} });
  });

  it('answers requests over maxInFlight with -32600 and runs them again once a slot frees', async () => {
    const server = start({ MAX_IN_FLIGHT: '2' });
    server.send({ jsonrpc: '2.0', id: 1, method: 'wait', params: { key: 'a' } });
    server.send({ jsonrpc: '2.0', id: 2, method: 'wait', params: { key: 'b' } });
    server.send({ jsonrpc: '2.0', id: 3, method: 'release', params: { key: 'a' } });
    expect(await server.next()).toMatchObject({
      id: 3,
      error: { code: -32600, data: { limit: 'maxInFlight', max: 2 } },
    });
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
    server.send({ jsonrpc: '2.0', id: 4, method: 'release', params: { key: 'a' } });
    expect(await server.next()).toMatchObject({ id: 4, result: { released: 'a' } });
    expect(await server.next()).toMatchObject({ id: 1, result: { waited: 'a' } });
  });

  it('passes notifications and malformed shapes to the handler; only the latter are answered; client responses are dropped', async () => {
    const server = start();
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    server.send({ jsonrpc: '2.0', id: 99, result: {} });
    server.send([1, 2, 3]);
    expect(await server.next()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request' },
    });
    server.send(echo(1));
    expect(await server.next()).toMatchObject({ id: 1 });
  });

  it('answers concurrent requests as they finish, not in arrival order', async () => {
    const server = start();
    server.send({ jsonrpc: '2.0', id: 1, method: 'wait', params: { key: 'k' } });
    server.send({ jsonrpc: '2.0', id: 2, method: 'release', params: { key: 'k' } });
    expect(await server.next()).toMatchObject({ id: 2, result: { released: 'k' } });
    expect(await server.next()).toMatchObject({ id: 1, result: { waited: 'k' } });
  });

  it('aborts a request on notifications/cancelled and writes nothing for it', async () => {
    const server = start();
    const aborted = textUntil(server.child.stderr, 'aborted 5');
    server.send({ jsonrpc: '2.0', id: 5, method: 'hang' });
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'stop' } });
    expect(await aborted).toContain('aborted 5: stop');
    server.send(echo(6));
    expect(await server.next()).toMatchObject({ id: 6 });
  });

  it('on EOF aborts running requests and exits with code 0', async () => {
    const server = start();
    const aborted = textUntil(server.child.stderr, 'aborted 1');
    server.send({ jsonrpc: '2.0', id: 1, method: 'hang' });
    server.send(echo(2));
    expect(await server.next()).toMatchObject({ id: 2 });
    server.child.stdin.end();
    expect(await aborted).toContain('The connection closed');
    expect(await server.exited).toBe(0);
  });
});

describe('StdioServerTransport (in-process streams)', () => {
  it('close() is idempotent, resolves closed, and never ends the output stream', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const transport = new StdioServerTransport(async () => undefined, { stdin, stdout });
    transport.start();
    await Promise.all([transport.close(), transport.close()]);
    await transport.closed;
    expect(stdout.writableEnded).toBe(false);
  });

  it('hands a final line without a newline to the handler at EOF, then aborts it and writes nothing', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const seen: unknown[] = [];
    const transport = new StdioServerTransport(
      (message, context) => {
        seen.push(message);
        return new Promise((resolve) => context.signal.addEventListener('abort', () => resolve(undefined)));
      },
      { stdin, stdout },
    );
    transport.start();
    stdin.end('{"jsonrpc":"2.0","id":1,"method":"m"}');
    await transport.closed;
    expect(seen).toEqual([{ jsonrpc: '2.0', id: 1, method: 'm' }]);
    expect(stdout.read()).toBeNull();
  });

  it('writes responses that finish together in one write, in order, each on its own line', async () => {
    const stdin = new PassThrough();
    const writes: string[] = [];
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        writes.push(chunk.toString('utf8'));
        callback();
      },
    });
    const transport = new StdioServerTransport(
      async (message) => ({ jsonrpc: '2.0', id: (message as { id: number }).id, result: {} }),
      { stdin, stdout },
    );
    transport.start();
    stdin.write(`${[1, 2, 3].map((id) => JSON.stringify(echo(id))).join('\n')}\n`);
    await new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 5000;
      const poll = () => {
        if (writes.join('').split('\n').length > 3) resolve();
        else if (Date.now() > deadline) reject(new Error(`only got ${JSON.stringify(writes)}`));
        else setImmediate(poll);
      };
      poll();
    });
    expect(writes).toHaveLength(1);
    expect(writes[0]?.split('\n').map((line) => (line === '' ? '' : JSON.parse(line).id))).toEqual([1, 2, 3, '']);
    await transport.close();
  });

  it('flushes an answer written just before close() before closed resolves', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const transport = new StdioServerTransport(
      async (message) => ({ jsonrpc: '2.0', id: (message as { id: number }).id, result: {} }),
      { stdin, stdout },
    );
    transport.start();
    stdin.end(`${JSON.stringify(echo(1))}\n`);
    await transport.closed;
    expect(JSON.parse(String(stdout.read()))).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
  });
});

describe('StdioServerTransport backpressure', () => {
  /** A client that has stopped reading its end of the pipe until `release()`. */
  function stalledOutput() {
    const held: Array<() => void> = [];
    let text = '';
    let stalled = true;
    const stdout = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _encoding, callback) {
        text += chunk.toString();
        if (stalled) held.push(callback);
        else callback();
      },
    });
    const release = (): void => {
      stalled = false;
      for (const callback of held.splice(0)) callback();
    };
    return {
      stdout,
      release,
      ids: () =>
        text
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line).id),
    };
  }

  /** Requests arriving one per event-loop turn, as from a pipe, and only as fast as the server reads them. */
  function requestSource(count: number) {
    let sent = 0;
    // A small buffer, as a pipe has: the source produces little more than the server reads.
    const stdin = new Readable({
      highWaterMark: 64,
      read() {
        if (sent === count) {
          setImmediate(() => this.push(null));
          return;
        }
        sent += 1;
        const line = `${JSON.stringify({ jsonrpc: '2.0', id: sent, method: 'big' })}\n`;
        setImmediate(() => this.push(line));
      },
    });
    return { stdin, sent: () => sent };
  }

  it('stops reading stdin while stdout holds more than 1 MiB, and resumes on drain without losing a response', async () => {
    const count = 200;
    const { stdin, sent } = requestSource(count);
    const output = stalledOutput();
    let handled = 0;
    const transport = new StdioServerTransport(
      async (message) => {
        handled += 1;
        const { id } = message as { id: number };
        return { jsonrpc: '2.0', id, result: { blob: 'x'.repeat(64 * 1024) } };
      },
      { stdin, stdout: output.stdout },
    );
    transport.start();
    await vi.waitFor(() => expect(stdin.isPaused()).toBe(true));
    const handledWhenPaused = handled;
    expect(output.stdout.writableLength).toBeGreaterThanOrEqual(DEFAULT_OUTPUT_HIGH_WATER_MARK);
    // Bounded: the 1 MiB mark plus what was already read, not all 200 responses of 64 KiB.
    expect(handledWhenPaused).toBeLessThan(count);
    // Nothing new is taken while the client does not read.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(handled).toBe(handledWhenPaused);
    expect(sent()).toBeLessThan(count);

    output.release();
    await transport.closed;
    expect(handled).toBe(count);
    expect(output.ids()).toEqual(Array.from({ length: count }, (_, i) => i + 1));
  });
});
