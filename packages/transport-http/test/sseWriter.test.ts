// Issue 20: the events an SSE stream is given in one tick reach the sink (and the socket) as one write.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MessageHandler } from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Exchange } from '../src/exchange.js';
import { FetchResponseSink } from '../src/fetchResponseSink.js';
import { SSE_KEEP_ALIVE, sseEvent } from '../src/httpReply.js';
import type { ResponseSink } from '../src/responseSink.js';
import { createHttpHandler } from '../src/server.js';
import { SseWriter } from '../src/sseWriter.js';
import { mcpHeaders, rpc } from './fakes.js';

type Call = { write: string } | { end: true } | { destroy: true } | { open: true };

/** A sink that records every call; `backlog` is what each write reports as still unsent. */
function recordingSink(backlog = () => 0): ResponseSink & { calls: Call[]; writes: () => string[] } {
  const calls: Call[] = [];
  return {
    calls,
    writes: () => calls.flatMap((call) => ('write' in call ? [call.write] : [])),
    reply: () => {
      throw new Error('an SSE writer never replies');
    },
    openStream: () => calls.push({ open: true }),
    write: (chunk) => {
      calls.push({ write: chunk });
      return backlog();
    },
    end: () => calls.push({ end: true }),
    destroy: () => calls.push({ destroy: true }),
  };
}

const options = { keepAliveIntervalMs: 0, maxStreamBufferBytes: 1 << 20 };
const note = (n: number) => ({ jsonrpc: '2.0', method: 'notifications/tasks', params: { taskId: `t${n}` } });
const notes = (count: number) => Array.from({ length: count }, (_, n) => note(n));
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('SseWriter: one write per tick', () => {
  it('hands 1,000 events sent in one tick to the sink as one write, in order and unchanged', async () => {
    const sink = recordingSink();
    const writer = new SseWriter(sink, options, () => {});
    writer.open();
    for (const message of notes(1000)) writer.send(message);
    expect(sink.writes()).toEqual([]);
    await tick();
    expect(sink.writes()).toEqual([notes(1000).map(sseEvent).join('')]);
  });

  it('writes the events of later ticks separately, in order', async () => {
    const sink = recordingSink();
    const writer = new SseWriter(sink, options, () => {});
    writer.open();
    writer.send(note(1));
    writer.send(note(2));
    await tick();
    writer.send(note(3));
    await tick();
    expect(sink.writes()).toEqual([sseEvent(note(1)) + sseEvent(note(2)), sseEvent(note(3))]);
  });

  it('end() writes what is pending before it completes the response, and nothing after', async () => {
    const sink = recordingSink();
    const writer = new SseWriter(sink, options, () => {});
    writer.open();
    writer.send(note(1));
    writer.send(note(2));
    writer.end();
    writer.send(note(3));
    writer.end();
    await tick();
    expect(sink.calls).toEqual([{ open: true }, { write: sseEvent(note(1)) + sseEvent(note(2)) }, { end: true }]);
  });

  it('stop() (the client went away) drops what is pending: nothing is written after it', async () => {
    const sink = recordingSink();
    const writer = new SseWriter(sink, options, () => {});
    writer.open();
    writer.send(note(1));
    writer.stop();
    writer.send(note(2));
    writer.end();
    await tick();
    expect(sink.calls).toEqual([{ open: true }]);
  });

  it('drops a reader whose backlog exceeds the limit after the tick’s write, and writes nothing more', async () => {
    const sink = recordingSink(() => 2048);
    const onOverflow = vi.fn();
    const writer = new SseWriter(sink, { ...options, maxStreamBufferBytes: 1024 }, onOverflow);
    writer.open();
    writer.send(note(1));
    await tick();
    writer.send(note(2));
    writer.end();
    await tick();
    expect(onOverflow).toHaveBeenCalledTimes(1);
    expect(sink.calls).toEqual([{ open: true }, { write: sseEvent(note(1)) }, { destroy: true }]);
  });

  it('drops the stream at once when one tick’s events alone exceed the limit (memory stays bounded)', async () => {
    const sink = recordingSink();
    const onOverflow = vi.fn();
    const writer = new SseWriter(sink, { ...options, maxStreamBufferBytes: 1024 }, onOverflow);
    writer.open();
    for (const message of notes(100)) writer.send(message);
    expect(onOverflow).toHaveBeenCalledTimes(1);
    await tick();
    expect(sink.calls).toEqual([{ open: true }, { destroy: true }]);
  });

  it('a keep-alive goes through the same queue, after the events sent before it', async () => {
    vi.useFakeTimers();
    try {
      const sink = recordingSink();
      const writer = new SseWriter(sink, { ...options, keepAliveIntervalMs: 10 }, () => {});
      writer.open();
      writer.send(note(1));
      await vi.advanceTimersByTimeAsync(0);
      await vi.advanceTimersByTimeAsync(10);
      writer.end();
      expect(sink.writes()).toEqual([sseEvent(note(1)), SSE_KEEP_ALIVE]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('SSE fronts: one tick of events, one chunk', () => {
  it('fetch front: 1,000 notifications of one tick are one chunk of the response body', async () => {
    const sink = new FetchResponseSink();
    const exchange = new Exchange(sink, undefined, options);
    for (const message of notes(1000)) exchange.notify(message as never);
    const reader = ((await sink.response).body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    exchange.finish({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } });
    const second = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe(notes(1000).map(sseEvent).join(''));
    expect(new TextDecoder().decode(second.value)).toBe(
      sseEvent({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } }),
    );
    expect((await reader.read()).done).toBe(true);
  });

  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
    server = undefined;
  });

  it('node:http front: 1,000 notifications of one tick are one res.write, and the client reads them all', async () => {
    const handler: MessageHandler = async (message, context) => {
      for (const note of notes(1000)) context.notify(note as never);
      return { jsonrpc: '2.0', id: (message as { id: number }).id, result: { resultType: 'complete' } };
    };
    const handle = createHttpHandler(handler);
    const writes: unknown[] = [];
    server = createServer((req, res) => {
      const write = res.write.bind(res) as (chunk: unknown) => boolean;
      res.write = ((chunk: unknown) => {
        writes.push(chunk);
        return write(chunk);
      }) as typeof res.write;
      handle(req, res);
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: 'POST',
      headers: mcpHeaders('tools/call', { 'mcp-name': 'many' }),
      body: JSON.stringify(rpc(1, 'tools/call', { name: 'many', arguments: {} })),
    });
    const body = await res.text();
    const answer = sseEvent({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete' } });
    expect(body).toBe(notes(1000).map(sseEvent).join('') + answer);
    expect(writes).toEqual([notes(1000).map(sseEvent).join(''), answer]);
    handle.close();
  });
});
